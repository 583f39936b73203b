"""The Naked Diagonal solve: every reachable position of a small board with perfect play, and proofs.
"""
