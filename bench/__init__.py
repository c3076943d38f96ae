"""The performance benchmark (``make bench``): ``run.py``; the synthetic club in ``synthetic.py``."""
