"""Digital guest check-in: the link, the invitation e-mail, the guest's page, the guests API."""
