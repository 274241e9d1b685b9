from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def wordnet_cache(tmp_path_factory):
    """One WordNet cache dir for the whole session, shared by every METEOR/WordNet test."""
    path = tmp_path_factory.getbasetemp() / "mtwb-wordnet-cache"
    path.mkdir(exist_ok=True)
    old = os.environ.get("MTWB_CACHE_DIR")
    os.environ["MTWB_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("MTWB_CACHE_DIR", None)
    else:
        os.environ["MTWB_CACHE_DIR"] = old
