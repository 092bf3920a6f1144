"""Valid time: when a statement became true, and which later statement replaced it
(``docs/validity.md``)."""
