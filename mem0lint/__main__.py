from mem0lint.cli import main

main()
