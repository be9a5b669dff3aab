"""The Spanish catalogues: shipped as data, refreshed from what the authority publishes."""
import json

import pytest

from rentalcomply.police.codes import es


@pytest.fixture(autouse=True)
def shipped_catalogue():
    es.use_directory(None)
    yield
    es.use_directory(None)


def test_the_shipped_catalogue_has_every_list_the_builders_use():
    catalogue = es.catalogue()
    assert set(catalogue["tipo_documento"]) >= {"NIF", "NIE", "PAS", "OTRO"}
    assert catalogue["sexo"] == {"H": "Hombre", "M": "Mujer", "O": "Otro"}
    assert catalogue["parentesco"]["PM"] == "Padre o madre"
    assert catalogue["municipios"]["28079"] == "Madrid"
    assert ("PAS", "Pasaporte") in es.choices("tipo_documento")


def test_a_catalogo_answer_replaces_its_list_and_a_refreshed_copy_is_used_once_saved(tmp_path):
    answer = tmp_path / "parentesco.xml"
    answer.write_text(
        '<ns3:catalogoResponse xmlns:ns3="http://www.soap.servicios.hospedajes.mir.es/comunicacion">'
        "<resultado><codigo>0</codigo><descripcion>Ok</descripcion></resultado><respuesta><resultado>"
        "<tupla><codigo>PM</codigo><descripcion>Padre o madre</descripcion></tupla>"
        "<tupla><codigo>TU</codigo><descripcion>Tutor/a</descripcion></tupla>"
        "<tupla><codigo>AB</codigo><descripcion>Abuelo/a</descripcion></tupla>"
        "<tupla><codigo>HR</codigo><descripcion>Hermano/a</descripcion></tupla>"
        "<tupla><codigo>OT</codigo><descripcion>Otro</descripcion></tupla>"
        "</resultado></respuesta></ns3:catalogoResponse>", "utf-8")
    refreshed = es.load_es_catalogue(answer)
    assert list(refreshed["parentesco"]) == ["PM", "TU", "AB", "HR", "OT"]
    assert "CY" in es.catalogue()["parentesco"]       # nothing changes before it is saved
    target = tmp_path / "codes"
    es.save_es_catalogue(refreshed, target)
    es.use_directory(target)
    assert "CY" not in es.catalogue()["parentesco"]


def test_ine_municipalities_are_read_from_the_ine_csv(tmp_path):
    csv = tmp_path / "diccionario26.csv"
    csv.write_bytes("CODAUTO;CPRO;CMUN;DC;NOMBRE\n01;4;1;3;Abla\n13;28;79;6;Madrid\n"
                    .encode("latin-1"))
    refreshed = es.load_es_catalogue(csv)
    assert refreshed["municipios"] == {"04001": "Abla", "28079": "Madrid"}


def test_a_json_file_replaces_only_the_sections_it_has(tmp_path):
    partial = tmp_path / "pagos.json"
    partial.write_text(json.dumps({"tipo_pago": {"EFECT": "Efectivo", "OTRO": "Otros"},
                                   "from_checkin": {"tipo_pago": {"cash": "EFECT"}}}), "utf-8")
    refreshed = es.load_es_catalogue(partial)
    assert refreshed["tipo_pago"] == {"EFECT": "Efectivo", "OTRO": "Otros"}
    assert refreshed["sexo"] == es.catalogue()["sexo"]


@pytest.mark.parametrize("name, content, message", [
    ("bad.json", '{"municipios": {"2807": "Madrid"}}', "municipios: bad code"),
    ("bad.json", '{"tipo_documento": {"PAS": "Pasaporte"}}', "lacks NIF"),
    ("bad.json", '{"from_checkin": {"sexo": {"M": "X"}}}', "maps to X"),
    ("bad.json", "[1, 2]", "JSON object"),
    ("bad.json", "{", "not JSON"),
    ("sexo.xml", "<resultado/>", "no <tupla>"),
    ("whatever.xml", "<resultado/>", "say which catalogue"),
    ("list.txt", "x", ".json, .xml"),
])
def test_an_unusable_file_is_refused_with_its_reason(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content, "utf-8")
    with pytest.raises(es.CatalogueError, match=message):
        es.load_es_catalogue(path)


def test_a_missing_file_is_refused(tmp_path):
    with pytest.raises(es.CatalogueError):
        es.load_es_catalogue(tmp_path / "none.json")


def test_the_refresh_keeps_the_file_under_the_data_directory_the_police_codes_use(tmp_path):
    from rentalcomply.police import codes

    answer = tmp_path / "sexo.xml"
    answer.write_text("<resultado><tupla><codigo>H</codigo><descripcion>Hombre</descripcion></tupla>"
                      "<tupla><codigo>M</codigo><descripcion>Mujer</descripcion></tupla></resultado>", "utf-8")
    written = es.refresh_es_catalogue(answer, tmp_path / "data")
    assert written == tmp_path / "data" / "police-codes" / "es" / "catalogues.json"
    previous = getattr(codes, "_data_dir", None)
    codes._data_dir = tmp_path / "data"
    try:
        assert es.catalogue()["sexo"] == {"H": "Hombre", "M": "Mujer"}
    finally:
        codes._data_dir = previous
    assert "O" in es.catalogue()["sexo"]
