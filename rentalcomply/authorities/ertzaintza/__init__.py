"""The Basque Country: the Ertzaintza's register of guests ("Registro Hotelero", Orden of 25 Nov
2022, BOPV 235 of 12 Dec 2022). Properties in the Basque Country (`ES-PV`) register their guests
there instead of SES.Hospedajes, within 24 hours of the arrival.

The Ertzaintza has a certificate-signed web service, but its interface (operations, production
address, format version) is not confirmed, so nothing is sent and no format is guessed: each
filing is held with the words of HAND_ENTRY, the party is shown on the booking page for typing
into the Ertzaintza's portal, and the host marks it filed (page, or
`POST /api/v1/bookings/{id}/police/filed`). When the service is confirmed, its connector goes in
this folder (`connector_module`, and `hand_entry_reason` emptied): the engine needs no change.
"""

from __future__ import annotations

from rentalcomply.filings.registry import Authority, register

HAND_ENTRY = ("file these guests in the Ertzaintza's portal (Registro Hotelero): its web service "
              "is not confirmed, so nothing is sent from here; then mark the filing filed")


class Ertzaintza(Authority):
    name = "ertzaintza"
    country = "ES"
    regions = ("ES-PV",)
    title = "Ertzaintza (Registro Hotelero)"
    connector_module = "rentalcomply.authorities.ertzaintza.connector"
    receipt_years_setting = "police_receipts_years_es"
    hand_entry_reason = HAND_ENTRY


register(Ertzaintza())
