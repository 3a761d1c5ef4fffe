"""The word lists the reading's rules use (demo_model/plausible.py), beside the corpus's own lists.

Each is a closed list a reader of Chinese knows, written by hand; none is drawn from the corpus or
from an evaluation set, and none decides training (the corpus has its own lists in
corpus_words.py: its verbs of saying and thinking are VERBS["vs"], its groups PLURALS).
"""

from __future__ import annotations

# Many people: 他 or 她 never means them (with Cilin's classes of groups: plausible._group).
GROUPS = ("大家", "大伙", "大伙儿", "全家", "全班", "各位", "诸位")

# Verbs after which a new clause begins (小明说他明天来: 他 may be 小明), and whose object may go
# on to do the next verb (觉得他会来).
SAYING = ("说", "觉得", "认为", "以为", "希望", "相信", "知道", "发现", "听说", "记得", "怀疑",
          "告诉", "提醒", "通知", "问")  # fmt: skip

# Verbs whose object may go on to do the next verb: pivots (妈妈叫我去买菜: 我 buys), seeing and
# hearing (听老师讲课); 是 and 有 (是爷爷写的, 有人敲门) and SAYING let their object act too.
PIVOTS = ("让", "叫", "请", "派", "要求", "使", "帮", "教", "带", "陪", "催", "逼", "听", "看",
          "看见", "听见", "看到", "听到", "见")  # fmt: skip

# Words after which a pronoun is an object, like a verb's (小伙子给他让座, 妈妈带她去医院).
TAKES_OBJECT = ("给", "把", "被", "对", "跟", "和", "向", "为", "替", "帮", "让", "叫", "请")

# Words that say two people are one (林明是我们的导游, 当过兵).
SAME = ("是", "名叫", "叫做", "当", "成了", "成为", "做")
