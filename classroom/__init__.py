"""The live class: join codes, the teacher's secret, answers, the store (memory, or Redis when
REDIS_URL is set) and the push channel (Server-Sent Events). Its HTTP API: classroom/README.md.

Imports nothing of ui/ or pages/. The launcher (launcher.py) serves its routes; a page asks
`is_teacher(code, st.context.cookies)`.
"""

from classroom.service import Classroom, cookie_name, is_teacher, running

__all__ = ["Classroom", "cookie_name", "is_teacher", "running"]
