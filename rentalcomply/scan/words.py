"""The guest page's words for scanning a document, in the seven languages of the check-in
(en, el, it, es, de, fr, pt), merged into the page's catalogue by `checkin/i18n.py`.

`{tip}` in a failure is the advice on light and angle, said separately so that every failure can
carry it.
"""

from __future__ import annotations

ORDER = ("en", "el", "it", "es", "de", "fr", "pt")

WORDS: dict[str, tuple[str, str, str, str, str, str, str]] = {
    "scan.title": (
        "Scan the document", "Σάρωση του εγγράφου", "Scansiona il documento",
        "Escanear el documento", "Dokument scannen", "Scanner le document",
        "Digitalizar o documento"),
    "scan.hint": (
        "Photograph the page with the two or three lines of letters and <<< at the bottom. "
        "We fill in what they say; you check it.",
        "Φωτογραφίστε τη σελίδα με τις δύο ή τρεις γραμμές γραμμάτων και <<< στο κάτω μέρος. "
        "Συμπληρώνουμε ό,τι γράφουν· εσείς το ελέγχετε.",
        "Fotografa la pagina con le due o tre righe di lettere e <<< in basso. "
        "Compiliamo ciò che dicono; tu lo controlli.",
        "Fotografíe la página con las dos o tres líneas de letras y <<< en la parte inferior. "
        "Rellenamos lo que dicen; usted lo comprueba.",
        "Fotografieren Sie die Seite mit den zwei oder drei Zeilen aus Buchstaben und <<< unten. "
        "Wir tragen ein, was dort steht; Sie prüfen es.",
        "Photographiez la page avec les deux ou trois lignes de lettres et de <<< en bas. "
        "Nous remplissons ce qu'elles disent ; vous vérifiez.",
        "Fotografe a página com as duas ou três linhas de letras e <<< na parte de baixo. "
        "Preenchemos o que dizem; você confirma."),
    "scan.formats": (
        "A JPEG or PNG photo, up to {size}.",
        "Φωτογραφία JPEG ή PNG, έως {size}.",
        "Una foto JPEG o PNG, fino a {size}.",
        "Una foto JPEG o PNG, de hasta {size}.",
        "Ein JPEG- oder PNG-Foto, bis {size}.",
        "Une photo JPEG ou PNG, jusqu'à {size}.",
        "Uma fotografia JPEG ou PNG, até {size}."),
    "scan.button": (
        "Read the document", "Ανάγνωση του εγγράφου", "Leggi il documento", "Leer el documento",
        "Dokument lesen", "Lire le document", "Ler o documento"),
    "scan.reading": (
        "Reading the document…", "Ανάγνωση του εγγράφου…", "Lettura del documento…",
        "Leyendo el documento…", "Dokument wird gelesen…", "Lecture du document…",
        "A ler o documento…"),
    "scan.privacy": (
        "The photo is used only to read these lines and is not kept.",
        "Η φωτογραφία χρησιμοποιείται μόνο για την ανάγνωση αυτών των γραμμών και δεν φυλάσσεται.",
        "La foto serve solo a leggere queste righe e non viene conservata.",
        "La foto solo se usa para leer estas líneas y no se guarda.",
        "Das Foto dient nur dazu, diese Zeilen zu lesen, und wird nicht aufbewahrt.",
        "La photo sert uniquement à lire ces lignes et n'est pas conservée.",
        "A fotografia serve apenas para ler estas linhas e não é guardada."),
    "scan.privacy_kept": (
        "The host keeps the photo, encrypted, and erases it with your other details.",
        "Ο οικοδεσπότης φυλάσσει τη φωτογραφία κρυπτογραφημένη και τη διαγράφει μαζί με τα "
        "υπόλοιπα στοιχεία σας.",
        "L'host conserva la foto, cifrata, e la cancella insieme agli altri tuoi dati.",
        "El anfitrión guarda la foto, cifrada, y la borra con el resto de sus datos.",
        "Der Gastgeber bewahrt das Foto verschlüsselt auf und löscht es mit Ihren übrigen Angaben.",
        "L'hôte conserve la photo, chiffrée, et l'efface avec vos autres données.",
        "O anfitrião guarda a fotografia, cifrada, e apaga-a com os seus outros dados."),
    "scan.read": (
        "Read from your document. Please check every field below and correct it if needed; "
        "names are written without accents on the document.",
        "Διαβάστηκαν από το έγγραφό σας. Ελέγξτε κάθε πεδίο παρακάτω και διορθώστε το αν "
        "χρειάζεται· τα ονόματα γράφονται χωρίς τόνους στο έγγραφο.",
        "Letti dal tuo documento. Controlla ogni campo qui sotto e correggilo se serve; "
        "sul documento i nomi sono scritti senza accenti.",
        "Leídos de su documento. Compruebe cada campo y corríjalo si hace falta; "
        "en el documento los nombres van sin acentos.",
        "Aus Ihrem Dokument gelesen. Bitte prüfen Sie jedes Feld unten und korrigieren Sie es "
        "bei Bedarf; Namen stehen im Dokument ohne Akzente.",
        "Lus sur votre document. Vérifiez chaque champ ci-dessous et corrigez-le au besoin ; "
        "les noms y sont écrits sans accents.",
        "Lidos do seu documento. Verifique cada campo abaixo e corrija-o se necessário; "
        "no documento os nomes são escritos sem acentos."),
    "scan.still_to_type": (
        "Not on the document's lines, still to type: {fields}.",
        "Δεν υπάρχουν στις γραμμές του εγγράφου, συμπληρώστε τα: {fields}.",
        "Non presenti nelle righe del documento, da scrivere: {fields}.",
        "No están en las líneas del documento, escríbalos: {fields}.",
        "Nicht in den Zeilen des Dokuments, bitte eintippen: {fields}.",
        "Absents des lignes du document, à saisir : {fields}.",
        "Não constam das linhas do documento, escreva-os: {fields}."),
    "scan.two_surnames": (
        "Your document writes both surnames together in Last name: if you have two, move the "
        "second into Second surname.",
        "Το έγγραφό σας γράφει και τα δύο επώνυμα μαζί στο Επώνυμο: αν έχετε δύο, μεταφέρετε το "
        "δεύτερο στο Δεύτερο επώνυμο.",
        "Il documento riporta entrambi i cognomi insieme in Cognome: se ne hai due, sposta il "
        "secondo in Secondo cognome.",
        "Su documento escribe los dos apellidos juntos en Primer apellido: si tiene dos, pase "
        "el segundo a Segundo apellido.",
        "Ihr Dokument schreibt beide Nachnamen zusammen in Nachname: Wenn Sie zwei haben, "
        "verschieben Sie den zweiten nach Zweiter Nachname.",
        "Votre document écrit les deux noms ensemble dans Nom : si vous en avez deux, déplacez "
        "le second dans Second nom.",
        "O seu documento escreve os dois apelidos juntos em Apelido: se tiver dois, passe o "
        "segundo para Segundo apelido."),
    "scan.failed": (
        "The document's lines could not be read with certainty, so nothing was filled in. "
        "{tip} Or type the details below.",
        "Οι γραμμές του εγγράφου δεν διαβάστηκαν με βεβαιότητα, οπότε δεν συμπληρώθηκε τίποτα. "
        "{tip} Ή πληκτρολογήστε τα στοιχεία παρακάτω.",
        "Le righe del documento non si leggono con certezza, quindi non è stato compilato nulla. "
        "{tip} Oppure scrivi i dati qui sotto.",
        "Las líneas del documento no se han podido leer con seguridad, así que no se ha "
        "rellenado nada. {tip} O escriba los datos abajo.",
        "Die Zeilen des Dokuments ließen sich nicht sicher lesen, daher wurde nichts eingetragen. "
        "{tip} Oder tippen Sie die Angaben unten ein.",
        "Les lignes du document n'ont pas pu être lues avec certitude : rien n'a été rempli. "
        "{tip} Ou saisissez les données ci-dessous.",
        "As linhas do documento não foram lidas com segurança, por isso nada foi preenchido. "
        "{tip} Ou escreva os dados abaixo."),
    "scan.not_found": (
        "No document lines were found in the photo. {tip}",
        "Δεν βρέθηκαν γραμμές εγγράφου στη φωτογραφία. {tip}",
        "Nella foto non si trovano le righe del documento. {tip}",
        "No se encuentran las líneas del documento en la foto. {tip}",
        "Auf dem Foto wurden keine Dokumentzeilen gefunden. {tip}",
        "Aucune ligne de document trouvée sur la photo. {tip}",
        "Não foram encontradas linhas do documento na fotografia. {tip}"),
    "scan.tip": (
        "Try again in good, even light, holding the phone straight above the page, without "
        "glare, with the lines filling most of the picture.",
        "Δοκιμάστε ξανά με καλό, ομοιόμορφο φως, κρατώντας το τηλέφωνο ίσια πάνω από τη σελίδα, "
        "χωρίς αντανακλάσεις, με τις γραμμές να γεμίζουν το μεγαλύτερο μέρος της εικόνας.",
        "Riprova con una luce buona e uniforme, tenendo il telefono dritto sopra la pagina, "
        "senza riflessi, con le righe che riempiono gran parte dell'immagine.",
        "Inténtelo de nuevo con buena luz uniforme, con el teléfono recto sobre la página, "
        "sin reflejos y con las líneas ocupando casi toda la imagen.",
        "Versuchen Sie es erneut bei gutem, gleichmäßigem Licht, das Telefon gerade über der "
        "Seite, ohne Spiegelungen, die Zeilen möglichst bildfüllend.",
        "Réessayez avec une bonne lumière uniforme, le téléphone bien droit au-dessus de la page, "
        "sans reflet, les lignes remplissant l'essentiel de l'image.",
        "Tente de novo com boa luz uniforme, o telemóvel direito sobre a página, sem reflexos, "
        "com as linhas a ocupar a maior parte da imagem."),
    "scan.too_large": (
        "This photo is larger than {size}. Take it again at a lower resolution, or choose a "
        "smaller file.",
        "Η φωτογραφία είναι μεγαλύτερη από {size}. Τραβήξτε την ξανά σε χαμηλότερη ανάλυση ή "
        "επιλέξτε μικρότερο αρχείο.",
        "La foto supera i {size}. Scattala di nuovo a una risoluzione più bassa o scegli un file "
        "più piccolo.",
        "La foto supera los {size}. Hágala de nuevo con menos resolución o elija un archivo "
        "más pequeño.",
        "Das Foto ist größer als {size}. Nehmen Sie es mit geringerer Auflösung auf oder wählen "
        "Sie eine kleinere Datei.",
        "La photo dépasse {size}. Reprenez-la en plus basse résolution ou choisissez un fichier "
        "plus petit.",
        "A fotografia tem mais de {size}. Tire-a de novo com menor resolução ou escolha um "
        "ficheiro mais pequeno."),
    "scan.too_many_pixels": (
        "This photo has too many pixels to be read here: at most {side} pixels a side and "
        "{megapixels} megapixels. Take it again at a lower resolution.",
        "Η φωτογραφία έχει πάρα πολλά pixel για να διαβαστεί εδώ: το πολύ {side} pixel ανά "
        "πλευρά και {megapixels} megapixel. Τραβήξτε την ξανά σε χαμηλότερη ανάλυση.",
        "La foto ha troppi pixel per essere letta qui: al massimo {side} pixel per lato e "
        "{megapixels} megapixel. Scattala di nuovo a una risoluzione più bassa.",
        "La foto tiene demasiados píxeles para leerla aquí: como máximo {side} píxeles por lado "
        "y {megapixels} megapíxeles. Hágala de nuevo con menos resolución.",
        "Das Foto hat zu viele Pixel, um hier gelesen zu werden: höchstens {side} Pixel je Seite "
        "und {megapixels} Megapixel. Nehmen Sie es mit geringerer Auflösung auf.",
        "La photo a trop de pixels pour être lue ici : au plus {side} pixels de côté et "
        "{megapixels} mégapixels. Reprenez-la en plus basse résolution.",
        "A fotografia tem demasiados píxeis para ser lida aqui: no máximo {side} píxeis por lado "
        "e {megapixels} megapíxeis. Tire-a de novo com menor resolução."),
    "scan.busy": (
        "Many photos are being read just now. Try again in a minute, or type the details below.",
        "Διαβάζονται πολλές φωτογραφίες αυτή τη στιγμή. Δοκιμάστε ξανά σε ένα λεπτό ή "
        "πληκτρολογήστε τα στοιχεία παρακάτω.",
        "Si stanno leggendo molte foto in questo momento. Riprova tra un minuto o scrivi i dati "
        "qui sotto.",
        "Ahora mismo se están leyendo muchas fotos. Inténtelo de nuevo en un minuto o escriba "
        "los datos abajo.",
        "Gerade werden viele Fotos gelesen. Versuchen Sie es in einer Minute erneut oder tippen "
        "Sie die Angaben unten ein.",
        "Beaucoup de photos sont en cours de lecture. Réessayez dans une minute ou saisissez les "
        "données ci-dessous.",
        "Estão a ser lidas muitas fotografias neste momento. Tente de novo dentro de um minuto "
        "ou escreva os dados abaixo."),
    "scan.not_image": (
        "This file is not a JPEG or PNG photo. Choose a photo of the document.",
        "Το αρχείο δεν είναι φωτογραφία JPEG ή PNG. Επιλέξτε μια φωτογραφία του εγγράφου.",
        "Questo file non è una foto JPEG o PNG. Scegli una foto del documento.",
        "Este archivo no es una foto JPEG o PNG. Elija una foto del documento.",
        "Diese Datei ist kein JPEG- oder PNG-Foto. Wählen Sie ein Foto des Dokuments.",
        "Ce fichier n'est pas une photo JPEG ou PNG. Choisissez une photo du document.",
        "Este ficheiro não é uma fotografia JPEG ou PNG. Escolha uma fotografia do documento."),
    "scan.heic": (
        "This photo is in HEIC format, which cannot be read here. On an iPhone, choose "
        "Settings > Camera > Formats > Most Compatible, or send the photo as JPEG.",
        "Η φωτογραφία είναι σε μορφή HEIC, που δεν διαβάζεται εδώ. Σε iPhone, επιλέξτε "
        "Ρυθμίσεις > Κάμερα > Μορφές > Πιο συμβατή ή στείλτε τη φωτογραφία ως JPEG.",
        "La foto è in formato HEIC, che qui non si legge. Su iPhone scegli Impostazioni > "
        "Fotocamera > Formati > Più compatibile, oppure invia la foto in JPEG.",
        "La foto está en formato HEIC, que aquí no se puede leer. En un iPhone, elija Ajustes > "
        "Cámara > Formatos > Más compatible, o envíe la foto en JPEG.",
        "Das Foto ist im HEIC-Format, das hier nicht gelesen werden kann. Wählen Sie auf dem "
        "iPhone Einstellungen > Kamera > Formate > Maximale Kompatibilität oder senden Sie "
        "das Foto als JPEG.",
        "La photo est au format HEIC, illisible ici. Sur iPhone, choisissez Réglages > Appareil "
        "photo > Formats > Le plus compatible, ou envoyez la photo en JPEG.",
        "A fotografia está em formato HEIC, que aqui não se lê. No iPhone, escolha Definições > "
        "Câmara > Formatos > Mais compatível, ou envie a fotografia em JPEG."),
    "scan.no_file": (
        "Choose or take a photo of the document first.",
        "Επιλέξτε ή τραβήξτε πρώτα μια φωτογραφία του εγγράφου.",
        "Scegli o scatta prima una foto del documento.",
        "Elija o haga primero una foto del documento.",
        "Wählen oder machen Sie zuerst ein Foto des Dokuments.",
        "Choisissez ou prenez d'abord une photo du document.",
        "Escolha ou tire primeiro uma fotografia do documento."),
    "scan.limited": (
        "Too many photos for this link for now. Type the details below, or try again in an hour.",
        "Πάρα πολλές φωτογραφίες για αυτόν τον σύνδεσμο προς το παρόν. Πληκτρολογήστε τα "
        "στοιχεία παρακάτω ή δοκιμάστε ξανά σε μία ώρα.",
        "Troppe foto per questo link per ora. Scrivi i dati qui sotto o riprova tra un'ora.",
        "Demasiadas fotos para este enlace por ahora. Escriba los datos abajo o vuelva a "
        "intentarlo dentro de una hora.",
        "Zu viele Fotos für diesen Link. Tippen Sie die Angaben unten ein oder versuchen Sie es "
        "in einer Stunde erneut.",
        "Trop de photos pour ce lien pour le moment. Saisissez les données ci-dessous ou "
        "réessayez dans une heure.",
        "Demasiadas fotografias para esta ligação por agora. Escreva os dados abaixo ou tente "
        "de novo dentro de uma hora."),
    "scan.expired": (
        "This document expired on {date}. An expired document is not accepted for check-in: "
        "please use a valid one, or ask your host.",
        "Το έγγραφο έληξε στις {date}. Ένα ληγμένο έγγραφο δεν γίνεται δεκτό: χρησιμοποιήστε "
        "ένα σε ισχύ ή ρωτήστε τον οικοδεσπότη σας.",
        "Questo documento è scaduto il {date}. Un documento scaduto non è accettato: usane uno "
        "valido o chiedi al tuo host.",
        "Este documento caducó el {date}. No se acepta un documento caducado: use uno válido "
        "o consulte a su anfitrión.",
        "Dieses Dokument ist am {date} abgelaufen. Ein abgelaufenes Dokument wird nicht "
        "angenommen: Verwenden Sie ein gültiges oder fragen Sie Ihren Gastgeber.",
        "Ce document a expiré le {date}. Un document expiré n'est pas accepté : utilisez-en un "
        "valide ou demandez à votre hôte.",
        "Este documento caducou em {date}. Um documento caducado não é aceite: use um válido "
        "ou fale com o seu anfitrião."),
    "scan.expires_during_stay": (
        "This document expires on {date}, before your departure. Please bring a document valid "
        "for the whole stay, or tell your host.",
        "Το έγγραφο λήγει στις {date}, πριν από την αναχώρησή σας. Φέρτε ένα έγγραφο σε ισχύ "
        "για όλη τη διαμονή ή ενημερώστε τον οικοδεσπότη σας.",
        "Questo documento scade il {date}, prima della partenza. Porta un documento valido per "
        "tutto il soggiorno o avvisa il tuo host.",
        "Este documento caduca el {date}, antes de su salida. Traiga un documento válido para "
        "toda la estancia o avise a su anfitrión.",
        "Dieses Dokument läuft am {date} ab, vor Ihrer Abreise. Bringen Sie ein Dokument mit, "
        "das für den ganzen Aufenthalt gilt, oder sagen Sie es Ihrem Gastgeber.",
        "Ce document expire le {date}, avant votre départ. Apportez un document valable pour "
        "tout le séjour ou prévenez votre hôte.",
        "Este documento caduca em {date}, antes da sua partida. Traga um documento válido para "
        "toda a estadia ou avise o seu anfitrião."),
}


def rows(languages: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """The words as the catalogue's rows, one text per language of `languages` in its order
    (English for a language not written here)."""
    return {key: tuple(texts[ORDER.index(lang)] if lang in ORDER else texts[0]
                       for lang in languages)
            for key, texts in WORDS.items()}
