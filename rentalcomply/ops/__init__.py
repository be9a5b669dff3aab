"""Operating an installation: backup, restore and the doctor's checks."""
