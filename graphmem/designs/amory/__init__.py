"""Amory: narrative-driven agent memory (stories, subplots, semanticised side facts)."""
