"""What `make run`, `make serve` and the tests start: app.py (rerun per interaction) with the
live class's HTTP routes and the browser code's bundles (ui/bundles.py) beside it
(`streamlit run launcher.py`; st.App stays out of app.py)."""

import streamlit as st

from classroom import Classroom, make_routes
from ui import bundles

classroom = Classroom.from_env(listen_host=lambda: st.get_option("server.address") or "")
# The view's code at a content-hashed URL the browser caches (ui/bundles.py), not per session.
app = st.App(
    "app.py", routes=make_routes(classroom) + bundles.routes(), lifespan=classroom.lifespan
)
