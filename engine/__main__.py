"""``python -m engine simulate …``: play random legal games and print a JSON summary."""

from engine.simulate import main

raise SystemExit(main())
