"""In-process fakes of external services, for unit tests."""
