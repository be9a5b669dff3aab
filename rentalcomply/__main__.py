from rentalcomply.cli import main

main()
