"""The channels' reservation exports (Airbnb's CSV, Booking.com's download) read into bookings."""
