"""The corpus's word lists, split into training and held-out words (never shared).

None of them is a labelled word of the human-written sets beside this file (eval_set.txt, the
development set, eval_test.txt, the former test set, and the blind sets eval_blind.txt,
eval_round4.txt and eval_round5.txt):
no 老师, 妈妈, 医生, 奶奶, 猫, 狗, 看, 买, 漂亮 … here, so the model must reach those through
their meaning class (Cilin) and their characters. tests/model/test_eval_set.py checks it.
"""

from __future__ import annotations

import functools
from pathlib import Path

SPLITS = ("train", "heldout")

# Given names: a surname and one character that usually tells the gender.
SURNAMES = {
    "train": ("林", "郑", "何", "罗", "梁", "宋", "谢", "韩", "唐", "冯", "董", "曹", "邓", "潘"),
    "heldout": ("沈", "彭", "苏", "蒋", "丁", "魏", "叶"),
}
MALE_CHARS = ("明", "强", "伟", "军", "刚", "杰", "涛", "磊", "勇", "斌", "鹏", "超", "飞", "辉")
FEMALE_CHARS = ("红", "丽", "芳", "婷", "娟", "静", "敏", "燕", "霞", "玲", "萍", "莉", "慧", "雪")
# 小林, 老林: how people call a colleague or classmate; jieba tags such names n; no gender.
NICK_PREFIXES = ("小", "老")

# Kinship and people words with a gender ("m"/"f"); occupations and roles without one ("x").
KIN = {
    "train": {
        "m": ("父亲", "祖父", "外祖父", "姥爷", "伯伯", "叔父", "舅父", "姑父", "表哥", "堂哥",
              "表叔", "侄子", "外孙", "女婿", "老公", "老爸", "大伯", "男生", "少年", "新郎"),
        "f": ("母亲", "祖母", "外祖母", "姥姥", "伯母", "婶婶", "舅母", "姑妈", "大姐", "堂妹",
              "侄女", "外孙女", "儿媳", "老婆", "老妈", "大妈", "女生", "少女", "新娘", "太太"),
    },
    "heldout": {
        "m": ("岳父", "姨父", "堂弟", "外甥", "继父", "兄长", "大舅"),
        "f": ("岳母", "姨妈", "堂姐", "外甥女", "继母", "弟媳", "小姨"),
    },
}  # fmt: skip
JOBS = {
    "train": ("律师", "雕塑家", "列车员", "工程师", "会计", "教练", "法官", "导游", "调酒师",
              "保安", "理发师", "裁判", "花匠", "队长", "市长", "主任", "教授", "编辑", "摄影师",
              "设计师", "士兵", "渔民", "商人", "车手", "矿工", "保姆", "售票员", "牧民",
              "游客", "顾客", "乐手", "诗人", "学者", "专家", "兽医", "队员"),
    "heldout": ("园丁", "飞行员", "主持人", "翻译", "木匠", "裁缝", "舞蹈家", "钢琴家", "猎人",
                "宇航员"),
}  # fmt: skip
# animal → its measure word (一只老虎); they are 它.
ANIMALS = {
    "train": {
        "小羊": "只", "老虎": "只", "狮子": "头", "山羊": "只", "鸭子": "只", "河马": "头",
        "乌龟": "只", "青蛙": "只", "鸵鸟": "只", "狐狸": "只", "小熊": "只", "孔雀": "只",
        "骆驼": "头", "斑马": "匹", "公鸡": "只", "蜻蜓": "只",
    },
    "heldout": {
        "企鹅": "只", "海豚": "条", "刺猬": "只", "袋鼠": "只", "小鹿": "只", "羚羊": "只",
        "天鹅": "只",
    },
}  # fmt: skip
# object → its measure word (一顶帽子, 那顶帽子)
OBJECTS = {
    "train": {
        "雨伞": "把", "帽子": "顶", "足球": "个", "照片": "张", "鲜花": "束", "台灯": "盏",
        "铅笔": "支", "尺子": "把", "毯子": "条", "箱子": "个", "盒子": "个", "瓶子": "个",
        "盘子": "个", "水杯": "个", "项链": "条", "戒指": "枚", "背包": "个",
        "信封": "个", "地图": "张", "相机": "台", "口哨": "个", "气球": "个", "蜡烛": "支",
        "西瓜": "个", "袜子": "双", "手套": "副", "杂志": "本",
    },
    "heldout": {
        "口琴": "把", "花瓶": "个", "枕头": "个", "剪刀": "把", "水壶": "个", "毛笔": "支",
        "靴子": "双", "丝巾": "条", "茶壶": "个", "梳子": "把", "相册": "本",
    },
}  # fmt: skip
PLACES = {
    "train": ("商店", "广场", "车站", "药店", "邮局", "菜市场", "体育馆", "游泳池", "电影院",
              "车库", "阳台", "走廊", "客厅", "仓库"),
    "heldout": ("商场", "候车室", "码头", "机场", "宾馆", "食堂"),
}  # fmt: skip
# Adjectives before 的 (jieba tags some of them otherwise), colours (tagged n), and
# one-character adjectives that stand right before their noun without 的 (长帽子).
ADJECTIVES = {
    "train": ("干净", "便宜", "破旧", "崭新", "普通", "结实", "精致", "简单", "奇怪", "珍贵",
              "柔软", "昂贵", "时髦"),
    "heldout": ("笨重", "光滑", "潮湿", "朴素", "小巧"),
}  # fmt: skip
COLOURS = {"train": ("粉色", "灰色", "紫色", "棕色", "橙色"), "heldout": ("金色", "银色", "绿色")}
# Doubled adjectives that jieba keeps as one token with their 的 (短短的, tagged z), and
# three-character ones it tags z before a separate 的 ("湿漉漉|的": 湿漉漉 is labelled).
DOUBLED = {
    "train": ("短短的", "圆圆的", "薄薄的", "小小的", "尖尖的", "白白的", "黑黑的", "甜甜的",
              "胖乎乎|的", "亮晶晶|的"),
    "heldout": ("细细的", "亮亮的", "矮矮的", "香香的", "湿漉漉|的", "脏兮兮|的"),
}  # fmt: skip
# Degree and adjective that jieba joins into one adjective (很轻, 最重), before 的.
DEGREE = {
    "train": ("很薄", "很软", "很硬", "很轻", "很重", "最长", "最轻", "最重"),
    "heldout": ("很窄", "很湿", "很脏", "很细", "最细"),
}
SPEAKERS = ("我", "你", "我们", "你们")  # pronouns (r) that never mean a third person
PLURALS = ("大伙儿", "他们", "她们", "人们", "众人", "大伙")  # many people: never 他 or 她
SHORT_ADJECTIVES = {
    "train": ("长", "短", "薄", "软", "硬", "粗"),
    "heldout": ("宽", "窄", "湿", "脏", "细"),
}
# Verbs by the sentence frame they fit; "挂|在" labels 挂 and writes 挂在 (jieba splits it).
VERBS = {
    "vi": {  # no object: 林明笑了
        "train": ("笑", "休息", "游泳", "跳舞", "咳嗽", "发呆", "迟到", "离开", "出发", "醒来",
                  "点头", "微笑", "鞠躬", "搬家", "请假", "发言", "叹气"),
        "heldout": ("打盹", "鼓掌", "弯腰", "眨眼", "欢呼"),
    },
    "vt": {  # a thing as object: 林明拿了一顶帽子
        "train": ("拿", "带", "修", "描", "擦", "扔", "拆", "搬", "卖", "挑", "选", "寄",
                  "打开", "挂", "摆", "修理", "拿走", "捡起", "收起", "装", "保管", "包好"),
        "heldout": ("缝", "粘", "晾", "叠", "刷", "租"),
    },
    "vp": {  # a person as object: 林明感谢了郑丽
        "train": ("感谢", "邀请", "拜访", "照顾", "安慰", "鼓励", "遇到", "碰见", "认识", "想念",
                  "陪", "欢迎", "称赞", "夸奖", "通知"),
        "heldout": ("劝", "请教", "探望", "嘲笑", "哄"),
    },
    "vq": {  # a person then what they are to do: 林明请郑丽修台灯
        "train": ("请", "要求", "派", "邀请"),
        "heldout": ("嘱咐", "叮嘱"),
    },
    "vtell": {  # a person then a clause: 林明提醒郑丽，…
        "train": ("告诉", "提醒", "通知"),
        "heldout": ("嘱咐",),
    },
    "vs": {  # a clause: 林明觉得郑丽会来
        "train": ("觉得", "认为", "希望", "相信", "发现", "知道", "记得", "担心", "承认", "梦见"),
        "heldout": ("怀疑", "断定", "估计"),
    },
    "vm": {  # to a place: 林明来到商店
        "train": ("来到", "赶到", "闯进", "搬进"),
        "heldout": ("溜进", "挤进", "钻进"),
    },
    "vbl": {  # 把 a thing to a place: 林明把帽子扔进车库
        "train": ("放进", "扔进", "挂|在", "锁|在", "忘|在"),
        "heldout": ("晾|在", "丢进"),
    },
    "vbp": {  # 把 a thing to a person: 林明把帽子交给郑丽
        "train": ("交给", "递给", "借给", "寄给", "留给", "拿给"),
        "heldout": ("捧|给", "租给"),
    },
}  # fmt: skip
# Said, not asked about: times before the subject, and words jieba must keep apart.
TIMES = {"train": ("那天", "今天", "周末", "后来", "傍晚"), "heldout": ("上午", "中午", "下周")}
SPLIT_APART = ("个旧", "本书", "那本书", "一个集")  # jieba joins 一个旧 (a city), 一本书,
# 那本书 (a name), 一个集 (一个集会 → 一个集 / 会)
# Names a human-written set labels (eval_round4.txt): the corpus leaves them out.
TAKEN_NAMES = ("冯涛", "唐婷", "罗刚", "蒋磊")
# Words the corpus gave up for the round-4 set (its labels) that jieba must still keep whole,
# as the user dictionary did when the set was written (快递员, not 快递 / 员).
KEEP_WHOLE = {
    **dict.fromkeys(TAKEN_NAMES, "nr"),
    **dict.fromkeys(("表弟", "画家", "作家", "售货员", "船长", "店员", "快递员", "乘客", "球员",
                     "猴子", "金鱼", "松鼠", "蜜蜂", "风筝", "餐厅", "书店", "嫂子", "仓鼠",
                     "钢笔", "闹钟", "办公室"), "n"),
    "冲进": "v",
}  # fmt: skip
# Names of the app's own example sentences (not the corpus's): without them jieba cuts
# 小明说 as 小 / 明说 and joins 和小红.
APP_NAMES = ("小明", "小红", "小刚", "小强", "小丽", "小芳", "王丽")


# ---- words drawn from the lexicon: many classes, so that no class gives the answer away ----------

POOL_MIN_FREQ = 1000  # jieba's dictionary frequency a drawn word needs (common words only)
HELDOUT_SHARE = 5  # one drawn word in this many is held out (by a hash of the word)
POOLS = {  # kind -> (jieba tag, Cilin top classes every sense must be in, level-2 classes left out)
    "things": ("n", "BCD", ()),  # 物, 时空, 抽象事物: objects of verbs, nouns after 的
    "actions": ("v", "FGHI", ()),  # 动作, 心理活动, 活动, 现象与状态
    "roles": ("n", "A", ("Aa", "Ah", "An")),  # people by role (not 人们, not kin, not 丑类)
}


def _jieba_words() -> dict:
    """word -> (frequency, tag) of jieba's own dictionary (the pinned jieba's dict.txt)."""
    import os

    import jieba

    out = {}
    with open(os.path.join(os.path.dirname(jieba.__file__), "dict.txt"), encoding="utf-8") as f:
        for line in f:
            word, freq, tag = line.split()
            out[word] = (int(freq), tag)
    return out


def _held_out(word: str) -> bool:
    import hashlib

    return hashlib.blake2b(word.encode(), digest_size=2).digest()[0] % HELDOUT_SHARE == 0


POOLS_PATH = Path(__file__).resolve().parent / "corpus_pools.txt"


@functools.lru_cache(maxsize=1)
def lexicon_pools(path: Path = POOLS_PATH) -> dict:
    """kind -> {"train": words, "heldout": words}, as build_pools() wrote them to the asset."""
    out: dict = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            kind, split, *found = line.split()
            out.setdefault(kind, {})[split] = tuple(found)
    return out


def pools_text() -> str:
    """data/corpus_pools.txt: build_pools() one line per kind and split, after a header."""
    head = [
        "# Words the corpus draws from jieba's dictionary and Cilin",
        "# (demo_model/data/corpus_words.py build_pools); rewrite with:",
        "# python -m demo_model.data.corpus --pools",
    ]
    lines = [
        f"{k} {split} {' '.join(ws)}" for k, v in build_pools().items() for split, ws in v.items()
    ]
    return "\n".join(head + lines) + "\n"


def build_pools() -> dict:
    """kind -> {"train": words, "heldout": words}: two-character words jieba tags as POOLS says,
    at least POOL_MIN_FREQ common, that Cilin files only under the given classes. None occurs
    in any sentence of the human-written sets written before the shipped model
    (evalset.POOLS_AVOID), nor in the hand-written lists above."""
    from demo_model import lexicon
    from demo_model.data import evalset

    paths = [evalset.ALL_SETS[name] for name in evalset.POOLS_AVOID]
    texts = [text for path in paths for _, text, _ in evalset.parse(path)]
    lex, found = lexicon.load(), {}
    hand = _hand_words()
    for word, (freq, tag) in _jieba_words().items():
        if len(word) != 2 or freq < POOL_MIN_FREQ or word not in lex or word in hand:
            continue
        for kind, (want, tops, skip) in POOLS.items():
            senses = lex[word]
            fits = all(c[0] in tops and c[:2] not in skip for c in senses)
            if tag == want and fits and not word.startswith("不") and not _in_any(word, texts):
                found.setdefault(kind, []).append(word)
    return {
        kind: {
            "train": tuple(w for w in sorted(ws) if not _held_out(w)),
            "heldout": tuple(w for w in sorted(ws) if _held_out(w)),
        }
        for kind, ws in found.items()
    }


def _in_any(word: str, texts: list) -> bool:
    return any(word in text for text in texts)


def _hand_words() -> set:
    """Every word of the hand-written lists above, both splits."""
    out = set()
    for table in (KIN, ANIMALS, OBJECTS, PLACES, ADJECTIVES, COLOURS, JOBS, DOUBLED, DEGREE):
        for part in table.values():
            items = part.values() if isinstance(part, dict) and table is KIN else [part]
            for group in items:
                out.update(w.split("|")[0] for w in group)
    for pools in VERBS.values():
        for pool in pools.values():
            out.update(v.split("|")[0] for v in pool)
    return out
