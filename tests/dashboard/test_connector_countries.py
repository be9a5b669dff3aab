"""The property form refuses a police connector that has no format for the property's country,
beside the field, as the API and the command line do
(tests/properties/test_connector_countries.py), and offers only those the country takes."""

from rentalcomply.properties import service as properties


def form(anna, prop, **changes):
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en")
    return {"csrf": anna.csrf(page), "name": prop.name, "address": prop.address,
            "country": prop.country, "timezone": prop.timezone, "max_guests": "",
            "police_connector": prop.police_connector, "status": prop.status, **changes}


def test_the_property_form_refuses_the_file_connector_for_a_greek_property(anna, account_a):
    prop = properties.create_property(account_a, name="Villa Anemoi", address="Oia")
    refused = anna.post(f"/dashboard/properties/{prop.id}?lang=en",
                        form(anna, prop, police_connector="file"), status=400)
    assert "has no police format for country GR" in refused.text
    assert properties.get_property(account_a, prop.id).police_connector == "none"
    new = anna.get("/dashboard/properties/new?lang=en")
    refused = anna.post("/dashboard/properties?lang=en", {
        "csrf": anna.csrf(new), "name": "Villa Thalassa", "address": "Fira", "country": "GR",
        "timezone": "Europe/Athens", "max_guests": "", "police_connector": "file",
        "status": "active"}, status=400)
    assert "has no police format for country GR" in refused.text
    assert [p.name for p in properties.list_properties(account_a)] == ["Villa Anemoi"]


def test_the_property_form_offers_only_the_connectors_the_country_takes(anna, account_a):
    greek = properties.create_property(account_a, name="Villa Anemoi", address="Oia")
    page = anna.get(f"/dashboard/properties/{greek.id}?lang=en")
    offered = page.html.select("#police_connector option")
    assert [o["value"] for o in offered] == ["none"]
    italian = properties.create_property(account_a, name="Casa Limone", address="Via Roma 1",
                                         country="IT")
    page = anna.get(f"/dashboard/properties/{italian.id}?lang=en")
    assert [o["value"] for o in page.html.select("#police_connector option")] == [
        "none", "file", "alloggiati"]
