"""Memory designs as plug-ins. Every sub-package here is a design with a ``design`` module
that defines ``DESIGN``, built on the plug-in kit (``graphmem.plugin``: the contract, the
registry that finds these packages, the settings' resolution); ``docs/adding-a-design.md``
walks through writing one. The modules beside the packages (``base``, ``registry``, ...)
forward old import paths to the kit for one release."""
