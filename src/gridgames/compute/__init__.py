"""Machine play beside the server, never in it: a bounded pool of worker processes (pool.py)
running jobs (jobs.py), shared by every server process through a small socket service
(service.py) when there are several."""
