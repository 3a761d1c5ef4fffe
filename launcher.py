"""What `make run`, `make serve` and the tests start: app.py (rerun per interaction) with the
live class's HTTP routes beside it (`streamlit run launcher.py`; st.App stays out of app.py)."""

import streamlit as st

from classroom import Classroom, make_routes

classroom = Classroom.from_env(listen_host=lambda: st.get_option("server.address") or "")
app = st.App("app.py", routes=make_routes(classroom), lifespan=classroom.lifespan)
