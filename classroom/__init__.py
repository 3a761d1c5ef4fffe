"""The live class: join codes, the teacher's secret, answers, the store (memory, or Redis when
REDIS_URL is set) and the push channel (Server-Sent Events). Its HTTP API: classroom/README.md.

Imports nothing of ui/ or pages/. The launcher (launcher.py) serves its routes (`make_routes`);
a page asks `is_teacher(code, st.context.cookies)`, `leads_any(cookies)`, `exposed(host)`.
"""

from classroom.codes import cookie_name
from classroom.routes import make_routes
from classroom.service import Classroom, exposed, is_teacher, leads_any, running

__all__ = [
    "Classroom",
    "cookie_name",
    "exposed",
    "is_teacher",
    "leads_any",
    "make_routes",
    "running",
]
