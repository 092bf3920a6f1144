"""Memory designs as plug-ins: the contract (``base``), discovery (``registry``) and settings
resolution (``configure``). Every sub-package here is a design with a ``design`` module that
defines ``DESIGN``; ``docs/adding-a-design.md`` walks through writing one."""
