from raceday.launch import main

main()
