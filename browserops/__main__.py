from browserops.cli import main

main()
