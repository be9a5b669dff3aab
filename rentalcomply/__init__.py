"""RentalComply: check-in, police and tax reporting for short-term rentals, on one machine."""

__version__ = "0.1.0"
