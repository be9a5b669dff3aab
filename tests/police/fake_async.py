"""A connector whose outcome arrives later (as SES.Hospedajes answers a batch id to poll), for
testing the framework's polling path without a network."""

from rentalcomply.filings.connector import Connector, GuestOutcome, Outcome


class AsyncConnector(Connector):
    name = "ses_hospedajes"
    credential_fields = ()

    def __init__(self):
        self.submitted = []
        self.polls = 0
        self.ready_after = 2

    def build_file(self, settings, stay, guests, filing):
        return "lote.xml", "application/xml", b"<lote/>"

    def submit(self, credentials, settings, stay, guests, filing, timeout):
        self.submitted.append([g.index for g in guests])
        return Outcome(state="pending", remote_id="LOTE-1", poll_after_seconds=60)

    def poll(self, credentials, settings, filing, timeout):
        assert filing.remote_id == "LOTE-1"
        self.polls += 1
        if self.polls < self.ready_after:
            return Outcome(state="pending", poll_after_seconds=60)
        return Outcome(state="submitted", reference="LOTE-1",
                       guests=[GuestOutcome(0, True), GuestOutcome(1, True)])


CONNECTOR = AsyncConnector()
