"""Settings shared by every test: hypothesis without deadlines."""

from hypothesis import settings

# No example may fail for its time: these machines are shared, and a first call that waited 350 ms
# for a core failed a matmul test whose calls take 0.2 ms (tests check results; benchmarks time).
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")
