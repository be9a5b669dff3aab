from rentalcomply.cli import main

# Guarded: a worker process started with "spawn" (the sync's feed parsers) imports this module
# again and must not run the command line.
if __name__ == "__main__":
    main()
