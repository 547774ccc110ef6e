from raceday.cli.main import main

main()
