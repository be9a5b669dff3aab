"""The properties' pages and their channels: the forms (the country and time zone as selects
from CLDR, each country's own fields), access instructions, the police set-up and its
connection test, the calendar feeds imported and exported, syncing now."""

from __future__ import annotations

from rentalcomply.core import clock
from rentalcomply.core.errors import ValidationError
from rentalcomply.dashboard.pages.checkin_links import property_link_block
from rentalcomply.dashboard.pages import access as access_pages
from rentalcomply.dashboard.pages.access import access_view
from rentalcomply.dashboard.pages import listing_aliases
from rentalcomply.dashboard.pages import regions as region_pages
from rentalcomply.dashboard.pages.listing_aliases import listing_aliases_view
from rentalcomply.dashboard.pages import obligations
from rentalcomply.dashboard.pages.obligations import obligations_view
from rentalcomply.dashboard.pages.police import police_setup_view
from rentalcomply.dashboard.pages import property_form
from rentalcomply.dashboard.pages.property_form import ZoneNeeded, form_values, zone_error
from rentalcomply.properties.access import languages_of as access_languages
from rentalcomply.dashboard.pages.shared import confirm, confirmed, with_query
from rentalcomply.dashboard.web import Pages, Redirect, form_errors, safe_next
from rentalcomply.filings import health, registry, setup
from rentalcomply.filings import settings as filing_settings
from rentalcomply.properties import countries
from rentalcomply.properties import service as properties

PROPERTY_FIELDS = property_form.PROPERTY_FIELDS


def show_property(page, prop, status=200, values=None, errors=None, channel_errors=None,
                  channel_values=None, access=None,
                  police_errors=None, police_values=None, connection=None,
                  police_not_kept=None, alias_errors=None, alias_values=None,
                  closed_errors=None, closed_values=None,
                  obligation_errors=None, obligation_typed=None):
    """The property's page: its channels, calendar export, check-in link, access instructions,
    police set-up (pages/police.py) and details; a refused form shows again with its errors."""
    from rentalcomply.sync import export
    return page.render(
        "property", status=status, title=prop.name, prop=prop,
        values=values or {name: getattr(prop, name) for name in PROPERTY_FIELDS},
        errors=errors or {}, channel_errors=channel_errors or {},
        access=access or access_view(page, prop),
        channel_values=channel_values or {"provider": "airbnb", "ical_url": ""},
        channels=properties.channels_of([prop.id])[prop.id], done=page.arg("done"),
        mask=properties.mask_feed_url, export_url=export.export_url(prop, page.public_url),
        checkin_link=property_link_block(page, prop),
        not_filed=property_form.not_filed(prop),
        police=police_setup_view(prop, police_values, police_errors, connection,
                                 police_not_kept),
        **listing_aliases_view(prop, alias_errors, alias_values),
        **obligations_view(prop, obligation_errors, obligation_typed),
        **property_form.choices(page, (values or {}).get("country") or prop.country,
                                (values or {}).get("timezone") or prop.timezone,
                                (values or {}).get("police_connector") or prop.police_connector,
                                prop),
        **region_pages.closed_days_view(page, prop, closed_errors, closed_values))


def _new_form(page, values: dict, errors: dict | None = None, status: int = 200):
    country = values.get("country") or ""
    return page.render("property_form", status=status, title=page._("New property"), prop=None,
                       values={**property_form.new_values(country), **values},
                       errors=errors or {},
                       **property_form.choices(page, country, values.get("timezone"),
                                               values.get("police_connector"),
                                               region=values.get("region")))


def register(pages: Pages) -> None:
    listing_aliases.register(pages, show_property)  # the listing names' section's forms
    region_pages.register(pages, show_property)  # the closed days' form
    obligations.register(pages, show_property)  # the statistics (and tax) set-up forms

    @pages.get("/properties")
    def property_list(page):
        props = properties.list_properties(page.account_id)
        return page.render("properties", title=page._("Properties"), props=props,
                           channels=properties.channels_of([p.id for p in props]))

    @pages.get("/properties/new")
    def property_new(page):
        """No country until the person picks one (`?country=IT` from a link picks it)."""
        country = page.arg("country").upper()
        if country not in dict(countries.country_choices(page.lang)):
            country = ""
        return _new_form(page, property_form.new_values(country))

    @pages.post("/properties")
    def property_create(page):
        if page.form("step") == "country":  # no script: the country's fields, nothing saved
            return _new_form(page, property_form.step_values(page))
        try:
            values = form_values(page)
        except ZoneNeeded as needed:
            return _new_form(page, needed.values, zone_error(page, needed), status=400)
        except ValidationError as error:  # no country chosen
            return _new_form(page, property_form.step_values(page), form_errors(error), 400)
        try:
            prop = property_form.create(page.account_id, values)
        except ValidationError as error:
            return _new_form(page, values, form_errors(error), status=400)
        page.record("property.create", prop.id)
        raise Redirect(page.url(f"/properties/{prop.id}", done="created"))

    @pages.get("/properties/<property_id>")
    def property_page(page, property_id):
        return show_property(page, properties.get_property(page.account_id, property_id))

    @pages.post("/properties/<property_id>")
    def property_update(page, property_id):
        prop = properties.get_property(page.account_id, property_id)
        if page.form("step") == "country":  # no script: the country's fields, nothing saved
            return show_property(page, prop, values={
                **{name: getattr(prop, name) for name in PROPERTY_FIELDS},
                **property_form.step_values(page, prop)})
        try:
            values = form_values(page, prop)
        except ZoneNeeded as needed:
            return show_property(page, prop, status=400, values=needed.values,
                                 errors=zone_error(page, needed))
        try:
            properties.update_property(page.account_id, property_id, **values)
        except ValidationError as error:
            return show_property(page, prop, status=400, values=values, errors=form_errors(error))
        page.record("property.update", property_id)
        raise Redirect(page.url(f"/properties/{property_id}", done="saved"))

    @pages.post("/properties/<property_id>/access")
    def property_access(page, property_id):
        """Access instructions, one text per guest language (pages/access.py). Write-only for a
        member; an owner who asked to read them edits them in place. Only the owner's refused
        form shows the texts typed back."""
        prop = properties.get_property(page.account_id, property_id)
        shown = page.form("shown") == "yes" and page.user.role == "owner"
        texts, typed = access_pages.typed_texts(page, prop, shown)
        hours = page.form("hours_before").strip()
        changes: dict = {}
        if page.form("remove") == "yes":
            changes["access_instructions"] = None
        elif texts:
            changes["access_instructions_by_language"] = texts
        try:
            changes["access_instructions_hours_before"] = int(hours)
        except ValueError:
            changes["access_instructions_hours_before"] = hours  # refused below, with its message
        try:
            properties.update_property(page.account_id, property_id, **changes)
        except ValidationError as error:
            errors = access_pages.field_errors(form_errors(error), typed["_new_language"],
                                               access_languages(prop))
            return show_property(page, prop, status=400, access=access_view(
                page, prop, shown=shown, typed=typed, errors=errors, hours=hours))
        page.record("property.access_instructions", property_id)  # what changed, never the text
        raise Redirect(page.url(f"/properties/{property_id}", done="access_saved") + "#access")

    @pages.post("/properties/<property_id>/access/read", owners=True)
    def property_access_read(page, property_id):
        """An owner reads the access instructions again, in the boxes to change them; each
        reading is in the activity log (who, when; never the text)."""
        prop = properties.get_property(page.account_id, property_id)
        page.record("property.access_instructions_read", property_id)
        return show_property(page, prop, access=access_view(page, prop, shown=True))

    @pages.post("/properties/<property_id>/police")
    def police_setup_save(page, property_id):
        """The police set-up, through the domain function the API and CLI use. Secrets are
        write-only: an empty box keeps what is set, and what was typed is never shown back (a
        refused form says which to type again). The rest, a user name too, shows as typed."""
        prop = properties.get_property(page.account_id, property_id)
        settings, credentials, typed, not_kept = {}, {}, {}, []
        stored = filing_settings.shown_credentials(prop)
        for field in setup.fields_of(prop.police_connector):
            value = page.form(field.name).strip()
            if field.secret and field.shown:  # its box shows what is set: empty clears it
                value = page.form(field.name, stored.get(field.name, "")).strip()  # absent: kept
                typed[field.name] = value
                # Sent only when changed: a credential changed releases the filings refused
                # for the old ones, which an unchanged user name must not do.
                if value != stored.get(field.name, ""):
                    credentials[field.name] = value or None
            elif field.secret:
                if value:
                    credentials[field.name] = value
                    not_kept.append(field.name)
            else:
                settings[field.name] = value or None
                typed[field.name] = value
        try:
            filing_settings.configure_property(page.account_id, property_id, settings=settings,
                                               credentials=credentials)
        except ValidationError as error:
            errors = {detail["field"].split(".", 1)[-1]: detail["message"]
                      for detail in error.details or []}
            return show_property(page, prop, status=400, police_values=typed,
                                 police_errors=errors, police_not_kept=not_kept)
        page.record("property.update", property_id)  # which property, never the values
        raise Redirect(page.url(f"/properties/{property_id}", done="police_saved")
                       + "#police-setup")

    @pages.post("/properties/<property_id>/police/move")
    def police_move(page, property_id):
        """The host confirms the move of a property on another authority than its region's (a
        Catalan property still on SES.Hospedajes): never done silently; the PATCH of
        `police_connector` is the API's way."""
        prop = properties.get_property(page.account_id, property_id)
        owed = registry.on_wrong_authority(prop)
        _take_owed_authority(page, property_id, owed)

    @pages.post("/properties/<property_id>/police/choose")
    def police_choose(page, property_id):
        """The property page's "File with Alloggiati Web" on a property whose guests are not
        being filed: the authority its country and region owe, its set-up then to complete."""
        prop = properties.get_property(page.account_id, property_id)
        owed = (property_form.not_filed(prop) or {}).get("authority")
        _take_owed_authority(page, property_id, owed)

    # Outside a transaction: the authority's answer may take seconds, and the database is not
    # held meanwhile (nothing is written).
    @pages.post("/properties/<property_id>/police/test", transaction=False)
    def police_setup_test(page, property_id):
        """Ask the authority whether it accepts the set-up, filing nothing; said in words."""
        prop = properties.get_property(page.account_id, property_id)
        timeout = min(float(page.settings.police.timeout_seconds), 15.0)
        answer = health.test_property_connection(prop, timeout)  # a question: nothing changes
        return show_property(page, prop, connection=answer)

    @pages.post("/properties/<property_id>/channels")
    def channel_add(page, property_id):
        prop = properties.get_property(page.account_id, property_id)
        values = {"provider": page.form("provider"), "ical_url": page.form("ical_url").strip()}
        try:
            connection = properties.add_channel(
                page.account_id, property_id, provider=values["provider"],
                ical_url=values["ical_url"],
                allow_private_addresses=page.settings.sync.allow_private_addresses)
        except ValidationError as error:
            return show_property(page, prop, status=400, channel_errors=form_errors(error),
                         channel_values=values)
        page.record("channel.add", connection.id)
        raise Redirect(page.url(f"/properties/{property_id}", done="channel_added"))

    @pages.post("/properties/<property_id>/ical-token")
    def export_rotate(page, property_id):
        from rentalcomply.sync import export
        prop = properties.get_property(page.account_id, property_id)
        if not confirmed(page):
            return confirm(
                page, title=page._("Give the calendar a new address?"), subject=prop.name,
                consequences=[page._("The current export address stops working at once."),
                              page._("Every channel that imports it (Airbnb, Booking.com, Vrbo, "
                                     "a channel manager) stops seeing this property's bookings "
                                     "until you paste the new address into it, and may let "
                                     "guests book dates that are taken.")],
                button=page._("Yes, give it a new address"),
                back=page.url(f"/properties/{property_id}"))
        export.rotate_token(page.account_id, property_id)
        page.record("property.rotate_export_url", property_id)
        raise Redirect(page.url(f"/properties/{property_id}", done="export_rotated"))

    @pages.post("/properties/<property_id>/channels/<channel_id>/accept-removals")
    def channel_accept_removals(page, property_id, channel_id):
        from rentalcomply.sync import service as sync
        from rentalcomply.sync import tasks as sync_tasks
        connection = sync.accept_removals(page.account_id, property_id, channel_id)
        page.record("channel.accept_removals", channel_id)
        page.after_commit.append(lambda: sync_tasks.sync_connection_task(connection.id))
        raise Redirect(page.url(f"/properties/{property_id}", done="removals_accepted"))

    @pages.post("/sync")
    def sync_now(page):
        """Every feed of the account, now: the API's trigger, with its once-per-5-minutes turn."""
        from rentalcomply.sync import service as sync
        from rentalcomply.sync import tasks as sync_tasks
        back = safe_next(page.form("next"))
        allowed, next_allowed_at = sync.claim_trigger(page.account_id)
        if not allowed:  # the turn is the account's, once per 5 minutes
            raise Redirect(with_query(back, done="sync_wait"))
        page.record("sync.trigger")
        account_id, asked_at = page.account_id, clock.utcnow().isoformat()
        page.after_commit.append(lambda: sync_tasks.sync_account_task(account_id, asked_at))
        raise Redirect(with_query(back, done="sync_queued"))

    @pages.post("/properties/<property_id>/channels/<channel_id>/delete")
    def channel_delete(page, property_id, channel_id):
        properties.remove_channel(page.account_id, property_id, channel_id)
        page.record("channel.delete", channel_id)
        raise Redirect(page.url(f"/properties/{property_id}", done="channel_deleted"))


def _take_owed_authority(page, property_id: str, owed) -> None:
    """The property onto the authority it owes (`owed`, None when it owes none), once the page's
    form names that same one: the move and the choice both confirm what the page offered."""
    if owed is None or page.form("police_connector") != owed.name:
        raise Redirect(page.url(f"/properties/{property_id}"))
    filing_settings.configure_property(page.account_id, property_id, connector=owed.name)
    page.record("property.update", property_id)
    raise Redirect(page.url(f"/properties/{property_id}", done="police_saved")
                   + "#police-setup")
