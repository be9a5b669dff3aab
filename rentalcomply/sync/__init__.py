"""Channel sync: channels' iCalendar feeds in, bookings and blocks out, and our own feed back."""
