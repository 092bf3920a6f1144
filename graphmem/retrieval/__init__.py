"""Retrievers and the context packer."""
