"""CAST (Ma, Li et al.): character-and-scene episodic memory. Views (a turn with its
neighbours), character streams, greedy 3D scene aggregation (time, place, topic; two of
three), main/supporting roles and character profiles, fused with the HippoRAG 2 semantic
layer by promoting semantic hits the episodic side also found."""
