"""The dashboard's side of listings mapped once: one question per unknown listing on the Import
reservations page, each row's property in the preview, and the property page's listing names."""

from __future__ import annotations

import re

from rentalcomply.core.models import Booking
from rentalcomply.imports.models import ListingAlias
from tests.dashboard.conftest import anna, browser_for  # noqa: F401  (fixtures)
from tests.imports.conftest import agency_file
from tests.imports.make_listing_files import AIRBNB_LISTINGS, BOOKING_PROPERTIES
from tests.imports.test_dashboard import apply, upload


def answer(preview, answers: dict[str, str]):
    form = preview.forms["listings-form"]
    for field_name in form.fields:
        if field_name and field_name.startswith("title_"):
            index = field_name.split("_")[1]
            form[f"property_{index}"] = answers[form[field_name].value]
    return form.submit()


def test_one_question_per_unknown_listing_then_every_row_on_its_property(anna, agency):
    preview = upload(anna, agency_file("agency_airbnb_oct.csv"), name="reservations.csv")
    questions = preview.html.select(".listing-question")
    assert [q.label.get_text(strip=True) for q in questions] == list(AIRBNB_LISTINGS)
    assert [o.get_text() for o in questions[0].select("option")][1:] == sorted(agency)
    assert "Apply these changes" not in preview.text  # nothing before every listing is answered

    answered = answer(preview, {title: agency[name]
                                for title, (name, _, _) in AIRBNB_LISTINGS.items()})
    assert not answered.html.select(".listing-question")
    assert "Preview: 14 new, 0 filled in, 1 unchanged, 0 conflicts." in answered.text
    for row in answered.html.select("#import-rows tbody tr"):
        shown = row.select_one(".import-property")
        title = shown.select_one(".muted").get_text(strip=True)
        assert shown.strong.get_text(strip=True) == AIRBNB_LISTINGS[title][0]
    done = apply(anna, answered)
    assert "Imported: 14 new, 0 filled in, 1 unchanged, 0 conflicts." in done.text
    assert ListingAlias.select().count() == 12

    second = upload(anna, agency_file("agency_airbnb_jan.csv"), name="reservations.csv")
    assert not second.html.select(".listing-question")
    assert "Preview: 12 new, 0 filled in, 0 unchanged, 0 conflicts." in second.text


def test_a_booking_com_file_of_three_properties_keeps_phones_and_bookers(anna, agency):
    preview = upload(anna, agency_file("agency_booking.xls"), name="export.xls")
    assert len(preview.html.select(".listing-question")) == 3
    answered = answer(preview, {title: agency[name] for title, name in
                                BOOKING_PROPERTIES.items()})
    text = answered.text
    assert "Schmidt, Anna" in text and "García López, Javier" in text
    apply(anna, answered)
    anna_schmidt = Booking.get(Booking.external_ref == "5012345601")
    assert (anna_schmidt.guest_name, anna_schmidt.guest_phone) == ("Schmidt, Anna",
                                                                    "+49 30 901820")


def test_the_property_page_lists_adds_and_removes_its_listing_names(anna, agency):
    prop = agency["BCN Born Studio"]
    page = anna.get(f"/dashboard/properties/{prop}")
    assert "Names in the channels’ reservation files" in page.text
    form = page.forms[[key for key, f in page.forms.items()
                       if f.action.endswith("/listing-aliases")][0]]
    form["channel"], form["title"] = "airbnb", "Cosy El Born studio, 10 min to the beach"
    saved = form.submit().follow()
    assert "Cosy El Born studio, 10 min to the beach" in saved.html.select_one(
        "#listing-alias-list").get_text()
    preview = upload(anna, agency_file("agency_airbnb_oct.csv"), name="reservations.csv")
    assert len(preview.html.select(".listing-question")) == 11

    remove = [f for f in saved.forms.values() if f.action.endswith("/delete")
              and "/listing-aliases/" in f.action][0]
    left = remove.submit().follow()
    assert "None yet" in left.html.select_one("#listing-alias-list").get_text()


def test_a_name_too_long_is_refused_beside_the_field_in_greek(anna, agency):
    prop = agency["BCN Born Studio"]
    page = anna.get(f"/dashboard/properties/{prop}?lang=el")
    form = [f for f in page.forms.values() if f.action.endswith("/listing-aliases")][0]
    form["title"] = "x" * 300 + "y"
    form.fields["title"][0].force_value("x" * 301)
    refused = form.submit(status=400)
    assert "πρέπει να έχει από 1 έως 300 χαρακτήρες" in refused.text
    assert re.search(r'id="alias-title"[^>]*aria-invalid="true"', refused.text)


def test_the_questions_in_greek(anna, agency):
    anna.get("/dashboard/bookings/import?lang=el")
    page = anna.get("/dashboard/bookings/import")
    preview = anna.post("/dashboard/bookings/import", {"csrf": anna.csrf(page)},
                        upload_files=[("file", "export.xls", agency_file("agency_booking.xls"))])
    text = preview.text
    assert "Σε ποιο κατάλυμα αντιστοιχεί κάθε καταχώριση;" in text
    assert "Καταχωρίσεις προς αντιστοίχιση με κατάλυμα: 3." in text
    assert "0 συγκρούσεις, 6 περιμένουν το κατάλυμα της καταχώρισής τους" in text
    assert "επιλέξτε το κατάλυμά της παραπάνω" in text and "σε αναμονή" in text
