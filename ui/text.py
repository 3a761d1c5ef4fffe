"""Every user-visible string of Attention Lab, in Chinese (default) and English: `t(key, lang)`."""

from __future__ import annotations

LANGS = ("zh", "en")
DEFAULT_LANG = "zh"

# One table for the whole app. Each area adds its own dict through `_section(name, {...})`
# in its own delimited block below; a key defined twice raises at import time.
TEXT: dict[str, dict[str, str]] = {}
SECTIONS: dict[str, tuple[str, ...]] = {}  # section name → its keys (for tests and audits)


def _section(name: str, table: dict[str, dict[str, str]]) -> None:
    """Merge one area's strings into TEXT; every entry needs both zh and en."""
    for key, entry in table.items():
        if key in TEXT:
            raise ValueError(f"text key {key!r} of section {name!r} is already defined")
        missing = [lang for lang in LANGS if not entry.get(lang)]
        if missing:
            raise ValueError(f"text key {key!r} of section {name!r} lacks {missing}")
        TEXT[key] = entry
    SECTIONS[name] = tuple(table)


def t(key: str, lang: str = DEFAULT_LANG, **fmt: object) -> str:
    """The string `key` in `lang` (zh when `lang` is unknown), formatted with `fmt`.

    A missing key raises KeyError, so tests catch a page asking for a string nobody wrote.
    """
    entry = TEXT[key]
    text = entry.get(lang) or entry[DEFAULT_LANG]
    return text.format(**fmt) if fmt else text


_MD_SPECIAL = set("\\`*_{}[]()<>#+-.!|~$:=&^\"'")


def md_escape(text: str) -> str:
    """User text → Markdown that shows it literally (no links, images, LaTeX, emphasis, icons)."""
    text = " ".join(str(text).split())  # no newlines: a chip or a label is one line
    return "".join("\\" + c if c in _MD_SPECIAL else c for c in text)


# ---- section: common (app frame, sidebar, notices) — owner: app helper -------------------------
_section(
    "common",
    {
        "app.title": {"zh": "注意力实验室", "en": "Attention Lab"},
        "app.tagline": {
            "zh": "把自注意力一块一块拆开，看它在一句真实的中文上怎么工作。",
            "en": "Self-attention taken apart, piece by piece, on a real Chinese sentence.",
        },
        "nav.main": {"zh": "注意力热图", "en": "Attention heatmaps"},
        "nav.steps": {"zh": "一步一步", "en": "Step by step"},
        "nav.scaling": {"zh": "为什么除以 √d_k", "en": "Why divide by √d_k"},
        "nav.heads": {"zh": "多头注意力", "en": "Multi-head"},
        "nav.cost": {"zh": "n² 的代价", "en": "The n² cost"},
        "nav.order": {"zh": "词序与位置编码", "en": "Word order"},
        "nav.library": {"zh": "图书馆比喻", "en": "Library lookup"},
        "nav.learned": {"zh": "学出来的注意力", "en": "Learned attention"},
        "side.lang": {"zh": "语言 / Language", "en": "Language / 语言"},
        "side.classroom": {"zh": "课堂投影模式", "en": "Classroom mode"},
        "side.classroom_help": {
            "zh": "放大文字和图表、格子里显示数字、提高对比度、收起侧栏。",
            "en": "Bigger text and charts, numbers in cells, higher contrast, sidebar collapsed.",
        },
        "side.controls": {"zh": "模型设置", "en": "Model settings"},
        "side.d_model": {"zh": "模型维度 d_model", "en": "Model width d_model"},
        "side.heads": {
            "zh": "头数 h（只列出 d_model 的约数）",
            "en": "Heads h (divisors of d_model)",
        },
        "side.scale": {"zh": "除以 √d_k 缩放", "en": "Scale by 1/√d_k"},
        "side.causal": {"zh": "因果掩码（只看前面的词）", "en": "Causal mask (look back only)"},
        "side.pos": {"zh": "位置编码", "en": "Positional encoding"},
        "side.seed": {"zh": "随机种子", "en": "Random seed"},
        "side.weights": {"zh": "权重来源", "en": "Weights"},
        "side.weights.random": {"zh": "随机初始化", "en": "Random init"},
        "side.weights.trained": {"zh": "训练好的小模型", "en": "Trained demo model"},
        "side.weights_unavailable": {
            "zh": "训练好的模型还不可用，先用随机权重。",
            "en": "The trained model is not available yet; using random weights.",
        },
        "side.trained_fixed": {
            "zh": "训练好的模型固定了 d_model = {d} 和 h = {h}，相应滑块不起作用。",
            "en": "The trained model fixes d_model = {d} and h = {h}; those controls are ignored.",
        },
        "side.display": {"zh": "显示", "en": "Display"},
        "side.shared_scale": {
            "zh": "所有头共用一个颜色刻度（0–1）",
            "en": "One colour scale for all heads (0–1)",
        },
        "side.numbers": {"zh": "格子里显示数字", "en": "Numbers in cells"},
        "side.share": {
            "zh": "分享：复制地址栏即可重现当前画面。",
            "en": "Share: copy the address bar.",
        },
        "notice.param_bad": {
            "zh": "链接参数 {name}={value} 无效，已改用 {used}。",
            "en": "Link parameter {name}={value} is invalid; using {used}.",
        },
        "notice.param_clamped": {
            "zh": "链接参数 {name}={value} 超出范围，已调整为 {used}。",
            "en": "Link parameter {name}={value} is out of range; using {used}.",
        },
        "notice.param_unknown": {
            "zh": "忽略了未知的链接参数：{names}。",
            "en": "Ignored unknown link parameters: {names}.",
        },
        "notice.param_repeated": {
            "zh": "链接参数 {name} 出现了多次，只用第一个。",
            "en": "Link parameter {name} appears more than once; using the first.",
        },
        "notice.heads_adjusted": {
            "zh": "h = {h} 不能整除 d_model = {d}，已改为 h = {used}。",
            "en": "h = {h} does not divide d_model = {d}; using h = {used}.",
        },
        "notice.empty": {
            "zh": "句子是空的（或只有空白、不可见字符）。请输入至少一个可见的字。",
            "en": "The sentence is empty (or only spaces / invisible characters). Type something.",
        },
        "notice.chars_cut": {
            "zh": "句子太长：只用了前 {kept} 个字符（去掉了 {cut} 个）。",
            "en": "The sentence is too long: kept the first {kept} characters ({cut} cut).",
        },
        "notice.tokens_cut": {
            "zh": "词太多：只用了前 {kept} 个词（去掉了 {cut} 个）。",
            "en": "Too many tokens: kept the first {kept} ({cut} cut).",
        },
        "notice.no_numbers": {
            "zh": "超过 {n} 个词时格子里不显示数字（太挤）；悬停可看数值。",
            "en": "Numbers in cells are hidden above {n} tokens (too crowded); hover to read them.",
        },
        "notice.error": {
            "zh": "这一部分没能算出来：{error}",
            "en": "This part could not be computed: {error}",
        },
        "notice.focus_missing": {
            "zh": "焦点词“{focus}”不在这句话里，改看“{used}”。",
            "en": "The focus token “{focus}” is not in this sentence; showing “{used}” instead.",
        },
        "notice.only_punct": {
            "zh": "句子里只有标点符号：照样可以算，但注意力没有什么可看的。",
            "en": "The sentence holds only punctuation: it still runs, but there is little to see.",
        },
        # -- frame: plotly charts, skip link, scrollable boxes (assets/frame.js, ui/charts.py)
        "fig.sqrt_ramp": {"zh": "√ 色阶", "en": "√ scale"},
        "frame.scrolls": {"zh": "可左右滚动", "en": "Scrolls sideways"},
        # Streamlit's and plotly's own names and hints; "en" is their exact English, which the
        # frame script replaces (app.py CHROME_KEYS).
        "chrome.skip": {"zh": "跳到正文", "en": "Skip to main content"},
        "chrome.sidebar": {"zh": "侧栏", "en": "Sidebar"},
        "chrome.collapse_sidebar": {"zh": "收起侧栏", "en": "Collapse sidebar"},
        "chrome.expand_sidebar": {"zh": "展开侧栏", "en": "Expand sidebar"},
        "chrome.app_pages": {"zh": "页面导航", "en": "App pages"},
        "chrome.help_for": {"zh": "“{label}”的说明", "en": "Help for {label}"},
        "chrome.decrement": {"zh": "减一", "en": "Decrement"},
        "chrome.increment": {"zh": "加一", "en": "Increment"},
        "chrome.choose": {"zh": "请选择", "en": "Choose an option"},
        "chrome.open": {"zh": "展开选项", "en": "Open"},
        "chrome.copy": {"zh": "复制到剪贴板", "en": "Copy to clipboard"},
        "chrome.columns": {"zh": "显示或隐藏列", "en": "Show/hide columns"},
        "chrome.download_csv": {"zh": "下载为 CSV", "en": "Download as CSV"},
        "chrome.search": {"zh": "搜索", "en": "Search"},
        "chrome.fullscreen": {"zh": "全屏", "en": "Fullscreen"},
        "chrome.close_fullscreen": {"zh": "退出全屏", "en": "Close fullscreen"},
        "chrome.link_heading": {"zh": "链接到此标题", "en": "Link to heading"},
        "chrome.png": {"zh": "下载为 PNG 图片", "en": "Download plot as a PNG"},
        "chrome.zoom": {"zh": "缩放", "en": "Zoom"},
        "chrome.pan": {"zh": "平移", "en": "Pan"},
        "chrome.zoom_in": {"zh": "放大", "en": "Zoom in"},
        "chrome.zoom_out": {"zh": "缩小", "en": "Zoom out"},
        "chrome.autoscale": {"zh": "自动缩放", "en": "Autoscale"},
        "chrome.reset_axes": {"zh": "重置坐标轴", "en": "Reset axes"},
        # -- sentence box and sidebar
        "sentence.apply": {"zh": "应用", "en": "Apply"},
        "sentence.apply_hint": {
            "zh": "改好句子后点“应用”（或按 Ctrl/⌘ + Enter）。",
            "en": "After editing the sentence, press Apply (or Ctrl/⌘ + Enter).",
        },
        "side.weights_fixed": {"zh": "本页固定使用：{name}", "en": "This page always uses: {name}"},
        # -- joining items in a sentence: Chinese punctuation never in English lines
        "list.sep": {"zh": "，", "en": "; "},
        "list.enum": {"zh": "、", "en": ", "},
        # -- English readers: word glosses (ui/gloss.py) and jieba's part-of-speech tags
        "gloss.none": {"zh": "（无释义）", "en": "(no gloss)"},
        "pos.legend": {"zh": "词性标记（jieba）", "en": "Part-of-speech tags (jieba)"},
        "pos.unknown": {"zh": "其他（{tag}）", "en": "other ({tag})"},
        "pos.a": {"zh": "形容词", "en": "adjective"},
        "pos.ad": {"zh": "副形词（作状语的形容词）", "en": "adjective used as adverb"},
        "pos.ag": {"zh": "形容词性语素", "en": "adjective morpheme"},
        "pos.an": {"zh": "名形词（作名词的形容词）", "en": "adjective used as noun"},
        "pos.b": {"zh": "区别词", "en": "non-predicate adjective"},
        "pos.c": {"zh": "连词", "en": "conjunction"},
        "pos.d": {"zh": "副词", "en": "adverb"},
        "pos.df": {"zh": "副词（不要）", "en": "adverb (不要)"},
        "pos.dg": {"zh": "副词性语素", "en": "adverb morpheme"},
        "pos.e": {"zh": "叹词", "en": "interjection"},
        "pos.eng": {"zh": "英文", "en": "English word"},
        "pos.f": {"zh": "方位词", "en": "locality word (on, in, under)"},
        "pos.g": {"zh": "语素", "en": "morpheme"},
        "pos.h": {"zh": "前缀", "en": "prefix"},
        "pos.i": {"zh": "成语", "en": "idiom"},
        "pos.j": {"zh": "简称", "en": "abbreviation"},
        "pos.k": {"zh": "后缀", "en": "suffix"},
        "pos.l": {"zh": "习用语", "en": "fixed expression"},
        "pos.m": {"zh": "数词", "en": "numeral"},
        "pos.mg": {"zh": "数词性语素", "en": "numeral morpheme"},
        "pos.mq": {"zh": "数量词", "en": "numeral + measure word"},
        "pos.n": {"zh": "名词", "en": "noun"},
        "pos.ng": {"zh": "名词性语素", "en": "noun morpheme"},
        "pos.nr": {"zh": "人名", "en": "person's name"},
        "pos.nrfg": {"zh": "人名", "en": "person's name"},
        "pos.nrt": {"zh": "音译人名", "en": "transliterated name"},
        "pos.ns": {"zh": "地名", "en": "place name"},
        "pos.nt": {"zh": "机构名", "en": "organisation name"},
        "pos.nz": {"zh": "其他专有名词", "en": "other proper noun"},
        "pos.o": {"zh": "拟声词", "en": "onomatopoeia"},
        "pos.p": {"zh": "介词", "en": "preposition"},
        "pos.q": {"zh": "量词", "en": "measure word"},
        "pos.r": {"zh": "代词", "en": "pronoun"},
        "pos.rg": {"zh": "代词性语素", "en": "pronoun morpheme"},
        "pos.rr": {"zh": "人称代词", "en": "personal pronoun"},
        "pos.rz": {"zh": "指示代词", "en": "demonstrative pronoun"},
        "pos.s": {"zh": "处所词", "en": "place word"},
        "pos.t": {"zh": "时间词", "en": "time word"},
        "pos.tg": {"zh": "时间语素", "en": "time morpheme"},
        "pos.u": {"zh": "助词", "en": "particle"},
        "pos.ud": {"zh": "助词（得）", "en": "particle (得)"},
        "pos.ug": {"zh": "助词（过）", "en": "particle (过)"},
        "pos.uj": {"zh": "结构助词（的）", "en": "structural particle (的)"},
        "pos.ul": {"zh": "动态助词（了）", "en": "aspect particle (了)"},
        "pos.uv": {"zh": "结构助词（地）", "en": "structural particle (地)"},
        "pos.uz": {"zh": "动态助词（着）", "en": "aspect particle (着)"},
        "pos.v": {"zh": "动词", "en": "verb"},
        "pos.vd": {"zh": "副动词（作状语的动词）", "en": "verb used as adverb"},
        "pos.vg": {"zh": "动词性语素", "en": "verb morpheme"},
        "pos.vi": {"zh": "不及物动词", "en": "intransitive verb"},
        "pos.vn": {"zh": "名动词（作名词的动词）", "en": "verb used as noun"},
        "pos.vq": {"zh": "动量词", "en": "verbal measure word"},
        "pos.x": {"zh": "标点或符号", "en": "punctuation or symbol"},
        "pos.y": {"zh": "语气词", "en": "modal particle"},
        "pos.z": {"zh": "状态词", "en": "descriptive word"},
        "pos.zg": {"zh": "状态词性语素", "en": "descriptive morpheme"},
    },
)
# ---- end section: common ------------------------------------------------------------------------

# ---- section: main page — owner: app helper -----------------------------------------------------
_section(
    "main",
    {
        "main.title": {
            "zh": "注意力实验室 · 每个头在看哪里",
            "en": "Attention Lab · where each head looks",
        },
        "main.intro": {
            "zh": "输入一句话。每个词先变成向量 X，再算出 Q、K、V；每个头用 Q·Kᵀ 给每对词打分，"
            "softmax 后得到注意力权重——下面每张热图的一行就是一个词在“看”哪些词。",
            "en": "Type a sentence. Each token becomes a vector X, then Q, K and V; each head "
            "scores every pair with Q·Kᵀ and a softmax turns scores into weights — each row of "
            "a heatmap below is where one token looks.",
        },
        "main.sentence": {"zh": "句子", "en": "Sentence"},
        "main.examples": {"zh": "例句", "en": "Examples"},
        "main.mode": {"zh": "切分方式", "en": "Split into"},
        "main.mode.word": {"zh": "词（jieba）", "en": "Words (jieba)"},
        "main.mode.char": {"zh": "单字", "en": "Characters"},
        "main.tokens": {
            "zh": "切分结果（{n} 个词，点一个词看它的注意力）",
            "en": "Tokens ({n}; click one to follow its attention)",
        },
        "main.heads_title": {
            "zh": "每个头的注意力权重",
            "en": "Attention weights, one map per head",
        },
        "main.heads_caption": {
            "zh": "行 = 提问的词（query），列 = 被看的词（key）；每行加起来等于 1。",
            "en": "Rows = the asking token (query), columns = the token looked at (key); "
            "each row sums to 1.",
        },
        "main.head": {"zh": "头 {i}", "en": "Head {i}"},
        "main.head_max": {"zh": "头 {i}（最大 {m}）", "en": "Head {i} (max {m})"},
        "main.query_axis": {"zh": "query（行）", "en": "query (row)"},
        "main.key_axis": {"zh": "key（列）", "en": "key (column)"},
        "main.weight": {"zh": "权重", "en": "weight"},
        "main.score": {"zh": "分数", "en": "score"},
        "main.scaling_title": {
            "zh": "缩放前后：头 {i}",
            "en": "Before and after scaling: head {i}",
        },
        "main.chosen_head": {"zh": "细看哪一个头", "en": "Head to inspect"},
        "main.raw": {"zh": "Q·Kᵀ（原始分数）", "en": "Q·Kᵀ (raw scores)"},
        "main.scaled": {"zh": "Q·Kᵀ / √d_k（√{dk} ≈ {s}）", "en": "Q·Kᵀ / √d_k (√{dk} ≈ {s})"},
        "main.w_scaled": {"zh": "softmax：缩放后", "en": "softmax, scaled"},
        "main.w_unscaled": {"zh": "softmax：不缩放", "en": "softmax, unscaled"},
        "main.scaling_caption": {
            "zh": "前两张用同一个颜色刻度：除以 √d_k 把分数压回到 1 左右。"
            "不缩放时 softmax 更“尖”：每行的最大权重更大、熵更小，梯度也更容易消失。",
            "en": "The first two share one colour scale: dividing by √d_k shrinks the scores. "
            "Without scaling the softmax is sharper: larger row maxima, lower entropy, "
            "vanishing gradients.",
        },
        "main.row_stats": {"zh": "每一行：熵和最大权重", "en": "Per row: entropy and max weight"},
        "main.entropy_scaled": {"zh": "熵（缩放）", "en": "entropy (scaled)"},
        "main.entropy_unscaled": {"zh": "熵（不缩放）", "en": "entropy (unscaled)"},
        "main.max_scaled": {"zh": "最大权重（缩放）", "en": "max weight (scaled)"},
        "main.max_unscaled": {"zh": "最大权重（不缩放）", "en": "max weight (unscaled)"},
        "main.entropy_axis": {"zh": "熵（比特）", "en": "entropy (bits)"},
        "main.max_axis": {"zh": "最大权重", "en": "max weight"},
        "main.stats_summary": {
            "zh": "平均熵：缩放 {hs} 比特，不缩放 {hu} 比特；平均最大权重：{ms} 对 {mu}。",
            "en": "Mean entropy: {hs} bits scaled, {hu} unscaled; mean max weight: {ms} vs {mu}.",
        },
        "main.focus_title": {"zh": "“{tok}” 在看谁", "en": "Where “{tok}” looks"},
        "main.focus_caption": {
            "zh": "每个头第 {pos} 行的权重：每个被看的词一组柱子，每个头一种颜色。",
            "en": "Row {pos} of every head: one group of bars per key token, one colour per head.",
        },
        "main.matrices": {"zh": "中间矩阵", "en": "The matrices in between"},
        "main.m.x": {"zh": "X：词向量（+位置编码）", "en": "X: token vectors (+ positions)"},
        "main.m.q": {"zh": "Q = X·W_Q（头 {i}）", "en": "Q = X·W_Q (head {i})"},
        "main.m.k": {"zh": "K = X·W_K（头 {i}）", "en": "K = X·W_K (head {i})"},
        "main.m.v": {"zh": "V = X·W_V（头 {i}）", "en": "V = X·W_V (head {i})"},
        "main.m.out": {"zh": "输出 = concat·W_O", "en": "Output = concat·W_O"},
        "main.dim_axis": {"zh": "维度", "en": "dimension"},
        "main.token_axis": {"zh": "词", "en": "token"},
        "main.value": {"zh": "数值", "en": "value"},
        "main.export": {"zh": "导出", "en": "Export"},
        "main.export_caption": {
            "zh": "每张图右上角的相机按钮可以下载高清 PNG。",
            "en": "The camera button on each chart downloads a high-resolution PNG.",
        },
        "main.csv_head": {"zh": "头 {i} 权重 CSV", "en": "Head {i} weights CSV"},
        "main.npz": {"zh": "全部矩阵 .npz", "en": "All matrices .npz"},
        "main.settings_json": {"zh": "当前设置 JSON", "en": "Settings JSON"},
        "main.formula_caption": {
            "zh": "d_k = d_model / h = {dk}；掩码位置在 softmax 前设为 −∞。",
            "en": "d_k = d_model / h = {dk}; masked positions are set to −∞ before the softmax.",
        },
        "main.trained_note": {
            "zh": "训练好的模型用它自己的切分与词向量。",
            "en": "The trained model uses its own tokens and embeddings.",
        },
    },
)
# ---- end section: main page ---------------------------------------------------------------------

# ---- section: teaching pages (steps, scaling, heads, cost, order, library) — owner: pages helper
_section(
    "teach",
    {
        "teach.head": {"zh": "头 {h}", "en": "Head {h}"},
        "teach.computing": {"zh": "正在计算……", "en": "Computing…"},
        # -- steps
        "steps.title": {"zh": "一步一步：从 X 到输出", "en": "Step by step: from X to the output"},
        "steps.intro": {
            "zh": "自注意力只有几行 numpy。用“上一步 / 下一步”走一遍："
            "每一步都显示它算出的矩阵、公式，以及代码里正在执行的那一行（◀）。",
            "en": "Self-attention is a few lines of numpy. Walk through them with Previous / Next: "
            "each step shows the matrix it produces, its formula and the line of code (◀).",
        },
        "steps.head": {"zh": "看哪个头", "en": "Head to show"},
        "steps.prev": {"zh": "◀ 上一步", "en": "◀ Previous"},
        "steps.next": {"zh": "下一步 ▶", "en": "Next ▶"},
        "steps.pick": {"zh": "步骤", "en": "Step"},
        "steps.name0": {"zh": "① 输入 X", "en": "① Input X"},
        "steps.name1": {"zh": "② Q、K、V", "en": "② Q, K, V"},
        "steps.name2": {"zh": "③ 打分 Q·Kᵀ", "en": "③ Scores Q·Kᵀ"},
        "steps.name3": {"zh": "④ 除以 √d_k", "en": "④ Divide by √d_k"},
        "steps.name4": {"zh": "⑤ softmax 权重", "en": "⑤ Softmax weights"},
        "steps.name5": {"zh": "⑥ 加权求和 ·V", "en": "⑥ Weighted sum ·V"},
        "steps.name6": {"zh": "⑦ 拼接 ·W_O", "en": "⑦ Concat ·W_O"},
        "steps.say0": {
            "zh": "每个词（共 {n} 个）变成一行向量；同一个词永远是同一个向量。",
            "en": "Each of the {n} tokens becomes one row vector; the same word always gets "
            "the same vector.",
        },
        "steps.say1": {
            "zh": "三个矩阵都由同一句话 X 乘不同的权重得到；这里显示所选的头（d_k = {d_k} 列）。",
            "en": "All three come from the same X times different weights; shown for the "
            "chosen head (d_k = {d_k} columns).",
        },
        "steps.say2": {
            "zh": "第 i 行第 j 列 = 第 i 个词的 query 与第 j 个词的 key 的点积：一共 n² = "
            "{n}² 个格子。",
            "en": "Row i, column j = query of token i · key of token j: n² = {n}² cells in all.",
        },
        "steps.say3": {
            "zh": "除以 √d_k = √{d_k}，和上一步用同一色标：颜色变淡，分数被拉回到方差约为 "
            "1 的范围。",
            "en": "Divided by √d_k = √{d_k}, on the previous step's colour scale: the colours "
            "fade as the scores return to variance ≈ 1.",
        },
        "steps.say4": {
            "zh": "softmax 把每一行变成加起来为 1 的权重：这个词把注意力分给谁。",
            "en": "Softmax turns each row into weights that sum to 1: how a token shares "
            "out its attention.",
        },
        "steps.say5": {
            "zh": "每个词的输出 = 所有 value 按权重相加（每行 d_k = {d_k} 个数）。",
            "en": "Each token's output = the values added with those weights (d_k = {d_k} "
            "numbers a row).",
        },
        "steps.say6": {
            "zh": "各个头的输出按顺序拼起来，再乘 W_O，回到 d_model 维。",
            "en": "The heads' outputs are joined in order and multiplied by W_O, back to "
            "d_model columns.",
        },
        "steps.drill": {"zh": "拆开一个格子", "en": "One cell taken apart"},
        "steps.query": {"zh": "query 词 i（行）", "en": "Query token i (row)"},
        "steps.key": {"zh": "key 词 j（列）", "en": "Key token j (column)"},
        "steps.check": {
            "zh": "核对：这一行所有权重相加 = {row_sum:.6f}",
            "en": "Check: this row's weights add up to {row_sum:.6f}",
        },
        "steps.try": {
            "zh": "试一试：在第 ④ 步关掉侧栏里的“除以 √d_k”，再看第 ⑤ 步的权重变得多“尖”。",
            "en": "Try this: at step ④ switch off “Scale by 1/√d_k” in the sidebar, then "
            "see how peaked step ⑤ becomes.",
        },
        # -- scaling
        "scaling.title": {"zh": "为什么要除以 √d_k", "en": "Why divide by √d_k"},
        "scaling.intro": {
            "zh": "q 和 k 的每个分量方差为 1 时，点积 q·k 是 d_k 项之和，方差约为 d_k。"
            "d_k 越大，分数越分散，softmax 就越接近“只选一个”，梯度几乎为零。除以 √d_k "
            "把方差拉回 1。",
            "en": "When q and k have unit-variance components, q·k is a sum of d_k terms "
            "with variance ≈ d_k. "
            "The larger d_k, the wider the scores, the closer softmax gets to picking "
            "one key, and the "
            "gradient all but vanishes. Dividing by √d_k brings the variance back to 1.",
        },
        "scaling.a": {
            "zh": "(a) 点积的方差随 d_k 增长",
            "en": "(a) The variance of q·k grows with d_k",
        },
        "scaling.dk": {"zh": "d_k（每个头的维度）", "en": "d_k (size of one head)"},
        "scaling.var_raw": {"zh": "var(q·k)，不缩放", "en": "var(q·k), unscaled"},
        "scaling.var_scaled": {"zh": "var(q·k/√d_k)，缩放后", "en": "var(q·k/√d_k), scaled"},
        "scaling.raw": {"zh": "q·k（不缩放）", "en": "q·k (unscaled)"},
        "scaling.scaled": {"zh": "q·k/√d_k（缩放）", "en": "q·k/√d_k (scaled)"},
        "scaling.hist": {
            "zh": "d_k = {d_k} 时 2 万对随机 q、k 的点积分布",
            "en": "q·k for 20,000 random pairs at d_k = {d_k}",
        },
        "scaling.var_title": {
            "zh": "实测方差 vs d_k（虚线：var = d_k）",
            "en": "Measured variance against d_k (dashed: var = d_k)",
        },
        "scaling.b": {
            "zh": "(b) softmax 饱和：最大权重与熵",
            "en": "(b) Softmax saturates: max weight and entropy",
        },
        "scaling.scaled_w": {"zh": "除以 √d_k", "en": "divided by √d_k"},
        "scaling.raw_w": {"zh": "不缩放", "en": "unscaled"},
        "scaling.max": {
            "zh": "一行中的最大权重（16 个 key）",
            "en": "Largest weight in a row (16 keys)",
        },
        "scaling.max_y": {"zh": "最大权重", "en": "max weight"},
        "scaling.entropy": {"zh": "一行权重的熵（奈特）", "en": "Entropy of a row (nats)"},
        "scaling.entropy_y": {"zh": "熵", "en": "entropy"},
        "scaling.c": {
            "zh": "(c) 梯度消失：softmax 雅可比矩阵的范数",
            "en": "(c) Vanishing gradient: the softmax Jacobian's norm",
        },
        "scaling.jac": {
            "zh": "‖∂softmax/∂z‖ 对 d_k（越小，梯度越难传回去）",
            "en": "‖∂softmax/∂z‖ against d_k (smaller = less gradient flows back)",
        },
        "scaling.jac_say": {
            "zh": "d_k = {d_k} 时：不缩放 {raw:.4f}，缩放后 {scaled:.4f}。",
            "en": "At d_k = {d_k}: unscaled {raw:.4f}, scaled {scaled:.4f}.",
        },
        "scaling.d": {
            "zh": "(d) 温度 τ：softmax(Q·Kᵀ/τ)",
            "en": "(d) Temperature τ: softmax(Q·Kᵀ/τ)",
        },
        "scaling.tau_map": {
            "zh": "你的句子，头 1，τ = {tau:.2f}",
            "en": "Your sentence, head 1, τ = {tau:.2f}",
        },
        "scaling.tau_curve": {
            "zh": "平均熵与最大权重随 τ 变化（点线：τ = √d_k）",
            "en": "Mean entropy and max weight against τ (dotted: τ = √d_k)",
        },
        "scaling.try": {
            "zh": "试一试：把 d_k 拉到 1024，看不缩放的直方图有多宽；再把 τ 拖到很小，热图会变成什"
            "么样？",
            "en": "Try this: set d_k to 1024 and see how wide the unscaled histogram is; "
            "then drag τ very small — what happens to the heatmap?",
        },
        # -- heads
        "heads.title": {"zh": "多头注意力", "en": "Multi-head attention"},
        "heads.intro": {
            "zh": "把 d_model 切成 h 份，每个头在 d_k = d_model/h 维里各算一张注意力图，"
            "再把输出拼起来乘 W_O。头多了，每个头变窄，总计算量和参数量不变。",
            "en": "Split d_model into h slices; each head computes its own attention map "
            "in d_k = d_model/h "
            "dimensions, then the outputs are joined and multiplied by W_O. More heads, "
            "narrower heads: "
            "the total compute and parameters stay the same.",
        },
        "heads.pick": {"zh": "头数 h", "en": "Heads h"},
        "heads.shape": {
            "zh": "h = {h}：每个头 d_k = {d_k} 维，拼起来仍是 d_model = {d} 维。",
            "en": "h = {h}: each head has d_k = {d_k} dimensions; joined they are d_model "
            "= {d} again.",
        },
        "heads.edges": {"zh": "每个头最强的连接", "en": "The strongest edges of each head"},
        "heads.concat_title": {"zh": "拼接与 W_O", "en": "Concatenation and W_O"},
        "heads.concat": {
            "zh": "拼接（黑线是头的分界）",
            "en": "Concat (black lines separate the heads)",
        },
        "heads.cost": {"zh": "代价对比", "en": "What it costs"},
        "heads.col.h": {"zh": "头数 h", "en": "heads h"},
        "heads.col.d_k": {"zh": "d_k", "en": "d_k"},
        "heads.col.params": {"zh": "参数量", "en": "parameters"},
        "heads.col.flops": {"zh": "浮点运算次数", "en": "FLOPs"},
        "heads.col.cells": {"zh": "注意力格子数 h·n²", "en": "attention cells h·n²"},
        "heads.cost_say": {
            "zh": "按你的句子（n = {n}）和 d_model = {d} 计算：参数量与 h 无关，浮点运算只多了 "
            "softmax 的一点点（每个格子约 5 次），只有要存的注意力格子随 h 增加。",
            "en": "For your sentence (n = {n}) and d_model = {d}: parameters do not depend "
            "on h, FLOPs only by the softmax's few operations per cell; only the attention "
            "cells to store grow with h.",
        },
        "heads.try": {
            "zh": "试一试：在 h = 1 和 h = 8 之间切换，看看有没有哪个头专门把“他”连到“小明”。",
            "en": "Try this: switch between h = 1 and h = 8 and look for a head that links "
            "他 to 小明.",
        },
        # -- cost
        "cost.title": {"zh": "n² 的代价", "en": "The n² cost"},
        "cost.intro": {
            "zh": "n 个词要算 n×n 个分数：n 翻倍，计算和内存都变成 4 倍。下面是在这台服务器上实测"
            "的，不是公式算的。"
            "分块（FlashAttention 的思路，在线 softmax）结果一样，但从不存下整张 n×n 矩阵。",
            "en": "n tokens need n×n scores: double n and compute and memory grow 4×. Below "
            "is measured on this "
            "server, not computed from a formula. The tiled variant (FlashAttention's "
            "idea, online softmax) "
            "gives the same output without ever holding the n×n matrix.",
        },
        "cost.measure": {"zh": "实测：时间与峰值内存", "en": "Measured: time and peak memory"},
        "cost.range": {"zh": "序列长度 n 的范围", "en": "Range of sequence lengths n"},
        "cost.need_two": {
            "zh": "至少选两个不同的 n 才能拟合斜率。",
            "en": "Pick at least two different n to fit a slope.",
        },
        "cost.big": {
            "zh": "最大的一张 n×n float32 矩阵有 {mib:,.0f} MiB，要多等一会儿。",
            "en": "The largest n×n float32 matrix is {mib:,.0f} MiB; this takes a while.",
        },
        "cost.run": {"zh": "开始测量", "en": "Run the measurement"},
        "cost.press": {
            "zh": "按“开始测量”在服务器上计时（结果会缓存）。",
            "en": "Press “Run the measurement” to time it on the server (results are cached).",
        },
        "cost.running": {"zh": "正在测量 n = {n} ……", "en": "Measuring n = {n}…"},
        "cost.running_t": {
            "zh": "正在生成 t = {t_len} 个词……",
            "en": "Generating t = {t_len} tokens…",
        },
        "cost.plain": {"zh": "普通注意力", "en": "plain attention"},
        "cost.tiled": {"zh": "分块注意力", "en": "tiled attention"},
        "cost.slope.plain_s": {"zh": "普通 · 时间斜率", "en": "plain · time slope"},
        "cost.slope.tiled_s": {"zh": "分块 · 时间斜率", "en": "tiled · time slope"},
        "cost.slope.plain_bytes": {"zh": "普通 · 内存斜率", "en": "plain · memory slope"},
        "cost.slope.tiled_bytes": {"zh": "分块 · 内存斜率", "en": "tiled · memory slope"},
        "cost.time": {"zh": "时间（对数坐标）", "en": "Time (log-log)"},
        "cost.time_y": {"zh": "毫秒", "en": "ms"},
        "cost.mem": {"zh": "峰值内存（对数坐标）", "en": "Peak memory (log-log)"},
        "cost.mem_y": {"zh": "MiB", "en": "MiB"},
        "cost.double": {
            "zh": "从数据读出：n 翻倍，普通注意力的内存 ×{mem:.1f}、时间 ×{time:.1f}（中位数）；"
            "最后一次翻倍到 n = {last_n} 时内存 ×{mem_last:.2f}。",
            "en": "Read off the data: doubling n multiplies plain attention's memory by {mem:.1f}"
            " and its "
            "time by {time:.1f} (medians); the last doubling, to n = {last_n}, took "
            "memory ×{mem_last:.2f}.",
        },
        "cost.col.n": {"zh": "n", "en": "n"},
        "cost.col.plain_s": {"zh": "普通 秒", "en": "plain s"},
        "cost.col.tiled_s": {"zh": "分块 秒", "en": "tiled s"},
        "cost.col.plain_bytes": {"zh": "普通 MiB", "en": "plain MiB"},
        "cost.col.tiled_bytes": {"zh": "分块 MiB", "en": "tiled MiB"},
        "cost.cells": {"zh": "你的句子：按词还是按字", "en": "Your sentence: words or characters"},
        "cost.fit_say": {
            "zh": "斜率用 np.polyfit 在对数坐标上拟合，只用 n ≥ {n} 的点"
            "（更小的 n 主要是固定开销）。斜率 2 表示 n 翻倍、量变成 2² = 4 倍。",
            "en": "Slopes fitted with np.polyfit on log values, on the points with n ≥ {n} (below, "
            "fixed overheads dominate). Slope 2 means doubling n multiplies the amount by 2² = 4.",
        },
        "cost.cells_empty": {
            "zh": "侧栏里的句子是空的，没有格子可数。",
            "en": "The sentence in the sidebar is empty: no cells to count.",
        },
        "cost.words": {"zh": "按词切分：{n} 个词 → 格子数", "en": "By words: {n} tokens → cells"},
        "cost.chars": {
            "zh": "按字切分：{n} 个字 → 格子数",
            "en": "By characters: {n} tokens → cells",
        },
        "cost.cells_say": {
            "zh": "按字切分要多算 {ratio:.1f} 倍的注意力格子。",
            "en": "Character tokens cost {ratio:.1f}× as many attention cells.",
        },
        "cost.kv": {
            "zh": "KV 缓存：一个词一个词地生成",
            "en": "KV cache: generating one token at a time",
        },
        "cost.kv_intro": {
            "zh": "生成第 t 个词时，前面的 K、V 不会变。不缓存就每一步都重新算全部 K、V；"
            "缓存后每步只算新词的一行。",
            "en": "When generating token t, the earlier K and V do not change. Without a "
            "cache every step "
            "recomputes all of K and V; with one, each step projects only the new token.",
        },
        "cost.kv_run": {"zh": "测量生成", "en": "Measure generation"},
        "cost.nocache": {"zh": "不缓存", "en": "no cache"},
        "cost.cache": {"zh": "KV 缓存", "en": "KV cache"},
        "cost.kv_time": {"zh": "生成 t 个词的总时间", "en": "Total time to generate t tokens"},
        "cost.kv_say": {
            "zh": "t = {t_len} 时：不缓存的浮点运算是缓存的 {ratio:.1f} 倍，实测慢 {speed:.1f} "
            "倍；缓存本身只占 {kib:,.0f} KiB。两种方式的输出最大相差 {diff:.1e}（只是浮点误"
            "差）。",
            "en": "At t = {t_len}: no cache does {ratio:.1f}× the FLOPs and is measured {speed:.1"
            "f}× slower; the cache itself holds {kib:,.0f} KiB. The two ways' outputs "
            "differ by at most {diff:.1e} (float round-off).",
        },
        "cost.try": {
            "zh": "试一试：把范围拉到 8192 再测一次，看内存那条线的斜率是不是还接近 2，而分块那条"
            "几乎是平的。",
            "en": "Try this: extend the range to 8192 and measure again — is the plain memory "
            "slope still near 2 while the tiled line stays almost flat?",
        },
        # -- order
        "order.title": {"zh": "词序与位置编码", "en": "Word order and positions"},
        "order.intro": {
            "zh": "注意力只看“谁和谁像”，不看“谁在前面”。没有位置编码时，打乱词序只会把注意力矩阵"
            "的行和列一起打乱"
            "（A₂ = P·A₁·Pᵀ），每个词的输出向量一模一样：我打你和你打我分不出来。",
            "en": "Attention looks at who resembles whom, not at who comes first. Without "
            "positions, reordering "
            "the words only permutes the attention matrix's rows and columns together "
            "(A₂ = P·A₁·Pᵀ), and "
            "each token's output vector is identical: 我打你 and 你打我 cannot be told apart.",
        },
        "order.pos": {"zh": "加上正弦位置编码", "en": "Add sinusoidal positions"},
        "order.without_pos": {
            "zh": "现在没有位置编码：下面的差值应该只是浮点误差（约 1e-16）。",
            "en": "No positions now: the differences below should be float round-off (about "
            "1e-16).",
        },
        "order.with_pos": {
            "zh": "现在加了位置编码：同一个词在不同位置得到不同的输入，对称被打破。",
            "en": "Positions on: the same word gets a different input at a different place, "
            "and the symmetry breaks.",
        },
        "order.pair": {"zh": "我打你 vs 你打我", "en": "我打你 vs 你打我"},
        "order.a": {"zh": "句子 A", "en": "Sentence A"},
        "order.b": {"zh": "句子 B（A 的词换个顺序）", "en": "Sentence B (A's words reordered)"},
        "order.empty": {"zh": "两句话都要有内容。", "en": "Both sentences need some text."},
        "order.not_perm": {
            "zh": "B 的词不是 A 的词换个顺序：A = {a}，B = {b}。",
            "en": "B's tokens are not a reordering of A's: A = {a}, B = {b}.",
        },
        "order.wdiff": {
            "zh": "max |A₂ − P·A₁·Pᵀ|（所有头）",
            "en": "max |A₂ − P·A₁·Pᵀ| (all heads)",
        },
        "order.odiff": {
            "zh": "同一个词输出向量的最大差",
            "en": "max output difference of the same token",
        },
        "order.moved": {"zh": "每个词的输出变了多少", "en": "How much each token's output moved"},
        "order.shuffle_title": {"zh": "打乱你的句子", "en": "Your sentence, shuffled"},
        "order.shuffle": {"zh": "再打乱一次", "en": "Shuffle again"},
        "order.pe": {"zh": "位置编码本身", "en": "The positional encoding itself"},
        "order.pe_title": {
            "zh": "正弦位置编码：前 {n} 个位置 × d_model = {d}",
            "en": "Sinusoidal positions: the first {n} positions × d_model = {d}",
        },
        "order.try": {
            "zh": "试一试：先看两个差值几乎为 0，再打开“加上正弦位置编码”，看它们变成多大。",
            "en": "Try this: see both differences near 0, then switch on “Add sinusoidal "
            "positions” and watch them grow.",
        },
        # -- library
        "library.title": {
            "zh": "图书馆比喻：查询、索引、内容",
            "en": "The library: query, key, value",
        },
        "library.intro": {
            "zh": "query 是你要找什么，key 是每本书的索引卡，value 是书的内容。"
            "拿 query 和每张卡比相似度，softmax 变成权重，再按权重把各本书的内容混在一起。",
            "en": "The query is what you are looking for, each key is a book's index card, "
            "each value the "
            "book's content. Compare the query with every card, softmax the similarities "
            "into weights, "
            "then mix the contents with those weights.",
        },
        "library.query": {"zh": "查询词（query）", "en": "Query token"},
        "library.cards": {
            "zh": "“{q}”的 query 和每个 key 的相似度 q·k/√d_k",
            "en": "Similarity q·k/√d_k of “{q}”'s query with every key",
        },
        "library.best": {"zh": "最像", "en": "best match"},
        "library.softmax": {
            "zh": "softmax：相似度变成权重",
            "en": "Softmax: similarities become weights",
        },
        "library.softmax_title": {
            "zh": "“{q}”分给每个词的注意力",
            "en": "How “{q}” shares out its attention",
        },
        "library.weight": {"zh": "权重", "en": "weight"},
        "library.mix": {"zh": "把内容一项一项加起来", "en": "Adding the contents term by term"},
        "library.terms": {
            "zh": "加入的项数（按权重从大到小）",
            "en": "Terms added (heaviest first)",
        },
        "library.terms_say": {
            "zh": "前 {m} 项（{keys}）占了 {share:.0%} 的权重，离最终输出还差 {gap:.3f}。",
            "en": "The first {m} terms ({keys}) carry {share:.0%} of the weight; {gap:.3f} "
            "is left to the final output.",
        },
        "library.partial": {"zh": "前 {m} 项之和", "en": "sum of {m} terms"},
        "library.output": {"zh": "最终输出", "en": "final output"},
        "library.vectors": {
            "zh": "部分和 vs 注意力的输出",
            "en": "Partial sum vs attention's output",
        },
        "library.gap": {"zh": "加到第几项时离输出还有多远", "en": "Distance left after each term"},
        "library.try": {
            "zh": "试一试：把查询词换成“他”以外的词，或者在侧栏关掉缩放，看看权重是不是集中到一本"
            "“书”上。",
            "en": "Try this: pick another query than 他, or switch scaling off in the sidebar, "
            "and see whether the weight piles onto a single “book”.",
        },
    },
)
# ---- end section: teaching pages ---------------------------------------------------------------

# ---- section: learned attention page — owner: model helper -------------------------------------
_section(
    "learned",
    {
        "learned.title": {"zh": "学出来的注意力", "en": "Learned attention"},
        "learned.intro": {
            "zh": "W_Q、W_K、W_V 一开始是随机的。这个小模型（一层 {h} 头注意力，d_model = {d}）"
            "用 numpy 反向传播训练：在“他/她”处要说出指的是谁，在动词处要说出谁做的。"
            "没有人告诉它该看哪里——注意力权重从不直接监督——可训练让“他”的查询对上了"
            "“小明”的键。拖动训练步数看它怎么学会。",
            "en": "W_Q, W_K and W_V start random. This tiny model (one attention layer, {h} "
            "heads, d_model = {d}) is trained with numpy backprop: at 他/她 it must say who is "
            "meant, at a verb who does it. Nobody tells it where to look — the attention "
            "weights are never supervised — yet training makes 他's query meet 小明's key. "
            "Drag the training step and watch it learn.",
        },
        "learned.step": {"zh": "训练步数", "en": "Training step"},
        "learned.play": {"zh": "▶ 播放训练过程", "en": "▶ Play training"},
        "learned.playing": {"zh": "第 {step} 步", "en": "step {step}"},
        "learned.scale": {"zh": "除以 √d_k（训练时开着）", "en": "Divide by √d_k (on in training)"},
        "learned.noscale_note": {
            "zh": "缩放关掉了：分数大了 √d_k = {r:.1f} 倍，softmax 变得更尖——这个模型训练时"
            "一直带着缩放，去掉它就等于把温度调低。",
            "en": "Scaling is off: the scores are √d_k = {r:.1f} times larger and the softmax "
            "gets sharper — the model was trained with scaling, so dropping it lowers the "
            "temperature.",
        },
        "learned.heads": {"zh": "第 {step} 步时每个头的注意力", "en": "Each head at step {step}"},
        "learned.focus": {
            "zh": "“{q}” 最关注 “{k}”（头 {head}，权重 {w:.0%}）",
            "en": "“{q}” looks most at “{k}” (head {head}, weight {w:.0%})",
        },
        "learned.curves": {"zh": "训练曲线", "en": "Training curves"},
        "learned.loss": {"zh": "损失", "en": "Loss"},
        "learned.loss_train": {"zh": "训练损失（每步）", "en": "training loss (each step)"},
        "learned.loss_smooth": {"zh": "训练损失（滑动平均）", "en": "training loss (smoothed)"},
        "learned.loss_heldout": {"zh": "留出集损失", "en": "held-out loss"},
        "learned.x_step": {"zh": "训练步数", "en": "training step"},
        "learned.now": {"zh": "当前", "en": "now"},
        "learned.acc_title": {"zh": "留出集上的表现", "en": "On the held-out split"},
        "learned.acc_any": {
            "zh": "有一个头最关注先行词",
            "en": "some head looks most at the antecedent",
        },
        "learned.acc_weight": {
            "zh": "最好的头给先行词的平均权重",
            "en": "best head's mean weight on the antecedent",
        },
        "learned.acc_readout": {"zh": "读出答对", "en": "read-out correct"},
        "learned.acc_chance": {"zh": "随机猜的水平", "en": "chance level"},
        "learned.heldout_note": {
            "zh": "留出集的名字、物品、地点和句式在训练中都没出现过。",
            "en": "Held-out names, objects, places and sentence patterns never appear in training.",
        },
        "learned.what": {
            "zh": "每个头学到了什么（留出集）",
            "en": "What each head learned (held out)",
        },
        "learned.head_line": {
            "zh": "头 {head}：{rel}，{acc:.0%} 的行里最大权重落在这里（平均权重 {w:.2f}）",
            "en": "head {head}: {rel} — the largest weight lands there in {acc:.0%} of rows "
            "(mean weight {w:.2f})",
        },
        "learned.head_diffuse": {
            "zh": "头 {head}：还看不出固定的分工（最像的是{rel}，{acc:.0%}）",
            "en": "head {head}: no clear job yet (closest: {rel}, {acc:.0%})",
        },
        "learned.rel.pronoun_antecedent": {
            "zh": "代词 → 它指的人",
            "en": "pronoun → the person it means",
        },
        "learned.rel.verb_subject": {"zh": "动词 → 主语", "en": "verb → its subject"},
        "learned.rel.self": {"zh": "看自己", "en": "itself"},
        "learned.rel.previous": {"zh": "看前一个词", "en": "the previous word"},
        "learned.col.head": {"zh": "头", "en": "head"},
        "learned.missing": {
            "zh": "找不到训练好的权重（{error}）。运行 `python -m attention_core.train` 生成。",
            "en": "The trained weights are missing ({error}). "
            "Run `python -m attention_core.train`.",
        },
        "learned.empty": {
            "zh": "这句话没法分词：{error}",
            "en": "This sentence cannot be tokenised: {error}",
        },
        "learned.sentence": {"zh": "句子", "en": "Sentence"},
        "learned.sentence.shared": {"zh": "当前句子：{s}", "en": "current sentence: {s}"},
        "learned.try": {
            "zh": "试一试：选“那天，小红在公园里看见了小刚，他很高兴。”——一男一女两个人，"
            "看“他”找的是谁；再拖回第 0 步对比。",
            "en": "Try this: pick “那天，小红在公园里看见了小刚，他很高兴。” — two people, one of "
            "each gender — and see whom 他 finds; then drag back to step 0.",
        },
    },
)
# ---- end section: learned attention page -------------------------------------------------------
