"""The use cases: a typed request from a handler (or a timer, a computer player) is applied to the game and
committed under the game's lock, and what happened comes back as events (``events``) for delivery to tell.
``wiring`` builds them once over one storage and one publisher."""
