"""The Spanish catalogues: shipped as data, loaded into the database from what the authority
publishes."""
import json

import pytest

from rentalcomply.codes import es


def test_the_shipped_catalogue_has_every_list_the_builders_use():
    catalogue = es.catalogue()
    assert set(catalogue["tipo_documento"]) >= {"NIF", "NIE", "PAS", "OTRO"}
    assert catalogue["sexo"] == {"H": "Hombre", "M": "Mujer", "O": "Otro"}
    assert catalogue["parentesco"]["PM"] == "Padre o madre"
    assert catalogue["municipios"]["28079"] == "Madrid"
    assert ("PAS", "Pasaporte") in es.choices("tipo_documento")


def test_a_catalogo_answer_replaces_its_list_and_is_used_once_loaded(settings, tmp_path):
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
    assert es.save_es_catalogue(refreshed, "parentesco.xml") == {"parentesco": 5}
    assert "CY" not in es.catalogue()["parentesco"]
    assert es.catalogue()["source"] == "parentesco.xml"


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


def test_the_refresh_loads_the_catalogue_into_the_database_for_every_process(settings, tmp_path):
    from rentalcomply import codes
    from rentalcomply.codes.models import PoliceCode

    answer = tmp_path / "sexo.xml"
    answer.write_text("<resultado><tupla><codigo>H</codigo><descripcion>Hombre</descripcion></tupla>"
                      "<tupla><codigo>M</codigo><descripcion>Mujer</descripcion></tupla></resultado>", "utf-8")
    assert es.refresh_es_catalogue(answer) == {"sexo": 2}
    assert es.catalogue()["sexo"] == {"H": "Hombre", "M": "Mujer"}
    assert codes.table_info("ES", "sexo").source == "SES.Hospedajes catalogo (sexo.xml)"
    assert PoliceCode.select().where(PoliceCode.table == "ES/sexo").count() == 2


def test_a_town_name_two_provinces_share_takes_the_province_of_the_postcode(settings, tmp_path):
    csv = tmp_path / "diccionario26.csv"
    csv.write_bytes("CPRO;CMUN;NOMBRE\n31;66;Castejón\n16;63;Castejón\n28;79;Madrid\n"
                    .encode("latin-1"))
    es.refresh_es_catalogue(csv)
    assert es.municipality_code("Madrid") == "28079"
    assert es.municipality_code("Castejón") is None           # never picked blind
    assert es.municipality_code("castejon", "31300") == "31066"
    assert es.municipality_code("Castejón", "16000") == "16063"
