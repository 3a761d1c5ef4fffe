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
        "side.weights.random": {"zh": "未训练的随机权重", "en": "Untrained random weights"},
        "side.weights.trained": {"zh": "训练好的小模型", "en": "Trained demo model"},
        "side.weights_unavailable": {
            "zh": "训练好的模型还不可用，先用随机权重。",
            "en": "The trained model is not available yet; using random weights.",
        },
        "side.trained_pos": {
            "zh": "训练好的模型自带位置编码（训练时就加在输入里），这个开关只管随机权重。",
            "en": "The trained model has positions built in (added to its inputs in training); "
            "this switch is for the random weights only.",
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
        "notice.param_stepped": {
            "zh": "链接参数 {name}={value} 在范围内，但 d_model 只取 {step} 的倍数，"
            "已调整为 {used}。",
            "en": "Link parameter {name}={value} is in range, but d_model comes in multiples of "
            "{step}; using {used}.",
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
        "main.head": {"zh": "头 {i}", "en": "Head {i}"},
        "main.head_max": {"zh": "头 {i}（最大 {m}）", "en": "Head {i} (max {m})"},
        "main.query_axis": {"zh": "query（行）", "en": "query (row)"},
        "main.key_axis": {"zh": "key（列）", "en": "key (column)"},
        "main.matrices": {"zh": "中间矩阵", "en": "The matrices in between"},
        "main.m.x": {"zh": "X：每个词的输入向量", "en": "X: each token's input vector"},
        "main.m.q": {"zh": "Q = X·W_Q（头 {i}）", "en": "Q = X·W_Q (head {i})"},
        "main.m.k": {"zh": "K = X·W_K（头 {i}）", "en": "K = X·W_K (head {i})"},
        "main.m.v": {"zh": "V = X·W_V（头 {i}）", "en": "V = X·W_V (head {i})"},
        "main.m.out": {"zh": "输出 = concat·W_O", "en": "Output = concat·W_O"},
        "main.dim_axis": {"zh": "维度", "en": "dimension"},
        "main.export": {"zh": "导出", "en": "Export"},
        "main.export_caption": {
            "zh": "图片：上面注意力图工具栏里的“下载 PNG”。这里是数值文件，和图上显示的是同一组数"
            "（numpy 核心算的；拖过 τ 时是那个 τ 下的权重）。",
            "en": "Pictures: the PNG button in the attention view's toolbar above. These are the "
            "numbers, the same ones the maps show (computed by the numpy core; at the τ you "
            "dragged to, if you did).",
        },
        "main.csv_head": {"zh": "头 {i} 权重 CSV", "en": "Head {i} weights CSV"},
        "main.npz": {"zh": "全部矩阵 .npz", "en": "All matrices .npz"},
        "main.settings_json": {"zh": "当前设置 JSON", "en": "Settings JSON"},
        "main.weights_trained": {
            "zh": "现在用的是 **训练好的小模型**（d_model {d}，{h} 个头，在几千句例句上训练过）："
            "每个头的分工是学出来的、在没见过的句子上量出来的。",
            "en": "Showing the **trained demo model** (d_model {d}, {h} heads, trained on a few "
            "thousand sentences): each head's job was learned, and measured on unseen sentences.",
        },
        "main.weights_random": {
            "zh": "现在用的是 **未训练的随机权重**（d_model {d}，{h} 个头，种子 {seed}）："
            "d_model、h 和种子随你改，但头还没有分工。",
            "en": "Showing **untrained random weights** (d_model {d}, {h} heads, seed {seed}): "
            "change d_model, h and the seed freely, but the heads have no jobs yet.",
        },
        "main.to_random": {
            "zh": "换成未训练的随机权重",
            "en": "Switch to untrained random weights",
        },
        "main.to_trained": {"zh": "换回训练好的小模型", "en": "Back to the trained model"},
        "main.trained_words": {
            "zh": "训练好的模型是在 jieba 切出的词上训练的，所以它总是按词切分；"
            "“单字”只对未训练的随机权重有效。",
            "en": "The trained model learned on jieba words, so it always splits into words; "
            "“Characters” applies to the untrained random weights only.",
        },
    },
)
# ---- end section: main page ---------------------------------------------------------------------

# ---- section: explorer (the main page's attention view, ui/explorer) — owner: lead -------------
_section(
    "explorer",
    {
        "explorer.scale": {"zh": "除以 √d_k", "en": "Divide by √d_k"},
        "explorer.scale_help": {
            "zh": "开：softmax(QKᵀ/√d_k)，模型真正的做法；关：softmax(QKᵀ)，不缩放。",
            "en": "On: softmax(QKᵀ/√d_k), what the model really does; off: softmax(QKᵀ).",
        },
        "explorer.causal": {"zh": "因果掩码", "en": "Causal mask"},
        "explorer.causal_help": {
            "zh": "每个词只能看自己和前面的词：后面的位置在 softmax 前设为 −∞，权重正好是 0。"
            "GPT 这样一个词一个词地生成文字。",
            "en": "Each token may look only at itself and earlier tokens: later positions are "
            "set to −∞ before the softmax and get weight exactly 0. This is how GPT generates "
            "text one token at a time.",
        },
        "explorer.tau": {"zh": "温度 τ", "en": "Temperature τ"},
        "explorer.tau_model": {
            "zh": "τ = √d_k = √{dk} ≈ {s}，模型用的缩放。往右拖每行更平，"
            "拖到最左（τ = 1）就是不缩放。",
            "en": "τ = √d_k = √{dk} ≈ {s}, the model's scaling. Drag right for flatter rows, "
            "all the way left (τ = 1) for no scaling.",
        },
        "explorer.tau_off": {
            "zh": "τ = 1：不缩放，原始分数直接进 softmax（模型用 τ = √d_k ≈ {s}）。",
            "en": "τ = 1: no scaling, the raw scores go straight into the softmax (the model "
            "uses τ = √d_k ≈ {s}).",
        },
        "explorer.tau_custom": {
            "zh": "τ = {v}：试一试的温度，只在这张图里（模型用 √d_k ≈ {s}）；拨一下开关回到模型。",
            "en": "τ = {v}: a temperature to try, only in this view (the model uses "
            "√d_k ≈ {s}); flip the switch to return to the model.",
        },
        "explorer.causal_note": {
            "zh": "因果掩码开着：每个词只看自己和前面的词，斜线格子的权重是 0。",
            "en": "Causal mask on: each token looks only at itself and earlier tokens; hatched "
            "cells have weight 0.",
        },
        "explorer.tokens": {
            "zh": "切分结果（{n} 个词）：点一个词，看它在每个头里看谁",
            "en": "Tokens ({n}): pick one to see where it looks in every head",
        },
        "explorer.no_gloss": {"zh": "（无释义）", "en": "(no gloss)"},
        "explorer.tags": {"zh": "词性标记：", "en": "Part-of-speech tags: "},
        "explorer.skip": {"zh": "跳到注意力图", "en": "Skip to the attention view"},
        "explorer.heads_title": {
            "zh": "每个头的注意力权重",
            "en": "Attention weights, one map per head",
        },
        "explorer.heads_caption": {
            "zh": "行 = 提问的词（query），列 = 被看的词（key）；每行加起来等于 1。"
            "点一张图：下面细看这个头，点到的那一行成为焦点词。",
            "en": "Rows = the asking token (query), columns = the token looked at (key); each "
            "row sums to 1. Click a map to inspect that head below, with the clicked row as "
            "the focus token.",
        },
        "explorer.head_job": {"zh": " · {job}", "en": " · {job}"},
        "explorer.job_hit": {
            "zh": "{rel}（在没见过的句子上 {acc:.0%} 命中）",
            "en": "{rel} ({acc:.0%} right on unseen sentences)",
        },
        "explorer.map_range": {
            "zh": " · 颜色刻度 0–{max}",
            "en": " · colour scale 0–{max}",
        },
        "explorer.colour_own": {
            "zh": "权重占本图最大值的比例（每张图按自己的最大值着色，见图题；颜色按 √ 变化）",
            "en": "weight as a share of the map's own maximum (each map has its own scale, "
            "in its title; colour follows √)",
        },
        "explorer.no_numbers": {
            "zh": "格子太小，放不下数字（{n} 个词）：悬停或用方向键读数值，或打开下面的数据表。",
            "en": "The cells are too small for numbers ({n} tokens): hover or use the arrow "
            "keys to read them, or open the data table below.",
        },
        "explorer.toolbar": {"zh": "注意力图的设置", "en": "Attention view settings"},
        "explorer.side_owned": {
            "zh": "√d_k 和因果掩码：在注意力图上方的工具栏里切换（也写进分享链接）。",
            "en": "√d_k and the causal mask: switch them in the attention view's toolbar "
            "(they go into the share link too).",
        },
        "explorer.picker": {"zh": "细看哪一个头", "en": "Head to inspect"},
        "explorer.heads_caption_touch": {
            "zh": "行 = 提问的词（query），列 = 被看的词（key）；每行加起来等于 1。"
            "点一张图：下面细看这个头，点到的那一行成为焦点词。",
            "en": "Rows = the asking token (query), columns = the token looked at (key); each "
            "row sums to 1. Tap a map to inspect that head below, with the tapped row as "
            "the focus token.",
        },
        "explorer.story_none_touch": {
            "zh": "这些头都没有测出明确的分工；点一张图细看。",
            "en": "None of these heads has a measured job; tap a map to inspect it.",
        },
        "explorer.story_other_touch": {
            "zh": "“{q}” 不是这几个头学会提问的那类词（代词、动词、“的”前面的修饰语）；"
            "点一张图，看它在每个头里看哪里。",
            "en": "“{q}” is not the kind of word these heads learned to ask for (a pronoun, a "
            "verb, a modifier before 的); tap a map to see where it looks in each head.",
        },
        "explorer.panels_title": {
            "zh": "缩放前后：头 {i}",
            "en": "Before and after scaling: head {i}",
        },
        "explorer.raw": {"zh": "S = Q·Kᵀ（原始分数）", "en": "S = Q·Kᵀ (raw scores)"},
        "explorer.scaled_on": {
            "zh": "S′ = Q·Kᵀ / √d_k（√{dk} ≈ {s}）",
            "en": "S′ = Q·Kᵀ / √d_k (√{dk} ≈ {s})",
        },
        "explorer.scaled_off": {
            "zh": "不缩放：S′ = S（和左图一样）",
            "en": "No scaling: S′ = S (same as the left)",
        },
        "explorer.scaled_tau": {"zh": "S′ = Q·Kᵀ / τ（τ = {v}）", "en": "S′ = Q·Kᵀ / τ (τ = {v})"},
        "explorer.weights": {"zh": "softmax(S′)：权重", "en": "softmax(S′): the weights"},
        "explorer.stats": {
            "zh": "这个头每行的平均熵 {h} 比特、平均最大权重 {m}（τ = {tau}）；"
            "τ = √d_k 时 {hs} 比特、{ms}；不缩放（τ = 1）时 {hu} 比特、{mu}。",
            "en": "This head's rows: mean entropy {h} bits, mean largest weight {m} "
            "(τ = {tau}); at τ = √d_k {hs} bits and {ms}; unscaled (τ = 1) {hu} bits and {mu}.",
        },
        "explorer.focus_title": {"zh": "“{tok}” 在看谁", "en": "Where “{tok}” looks"},
        "explorer.focus_caption": {
            "zh": "每个头第 {pos} 行的权重：每个被看的词一组柱子，每个头一种颜色。",
            "en": "Row {pos} of every head: one group of bars per key token, one colour per head.",
        },
        "explorer.tip": {"zh": "{q} → {k} · q·k {s} · {w}", "en": "{q} → {k} · q·k {s} · {w}"},
        "explorer.tip_scaled": {
            "zh": "{q} → {k} · q·k {s} · ÷{by} {v} · {w}",
            "en": "{q} → {k} · q·k {s} · ÷{by} {v} · {w}",
        },
        "explorer.tip_masked": {
            "zh": "{q} → {k} · 被掩码（后面的词，权重 0）",
            "en": "{q} → {k} · masked (a later token, weight 0)",
        },
        "explorer.live": {"zh": "{head}：{q} → {k}：{w}", "en": "{head}: {q} → {k}: {w}"},
        "explorer.map_label": {
            "zh": "{head} 的注意力权重，{n} × {n}。方向键移动格子；回车：细看这个头，"
            "以这一行为焦点。",
            "en": "{head} attention weights, {n} × {n}. Arrow keys move the cell; Enter: "
            "inspect this head with this row as the focus.",
        },
        "explorer.summary": {
            "zh": "{head}，每行最强的连接：{links}",
            "en": "{head}, strongest link per row: {links}",
        },
        "explorer.summary_row": {"zh": "{q} → {k} {w}", "en": "{q} → {k} {w}"},
        "explorer.sep": {"zh": "；", "en": "; "},
        "explorer.table": {
            "zh": "数据表：细看的头的全部权重",
            "en": "Data table: every weight of the inspected head",
        },
        "explorer.table_caption": {
            "zh": "头 {i} 的注意力权重（行 = query，列 = key）",
            "en": "Head {i} attention weights (rows = query, columns = key)",
        },
        "explorer.png": {
            "zh": "下载 PNG（1920 宽，投影用）",
            "en": "PNG (1920 wide, for projection)",
        },
        "explorer.masked": {"zh": "掩码", "en": "masked"},
        "explorer.colour_weight": {
            "zh": "权重（颜色按 √权重 变化）",
            "en": "weight (colour follows √weight)",
        },
        "explorer.colour_score": {
            "zh": "分数（左右两图同一刻度）",
            "en": "score (one scale for both panels)",
        },
        "explorer.legend": {"zh": "热图", "en": "heatmap"},
        "explorer.story_head": {
            "zh": "{head}（学会的分工：{job}）：{q} → {k}，{w}",
            "en": "{head} (learned job: {job}): {q} → {k}, {w}",
        },
        "explorer.story_undecided": {
            "zh": "{head}（学会的分工：{job}）：{q} 在 {a}（{wa}）和 {b}（{wb}）之间拿不定主意",
            "en": "{head} (learned job: {job}): {q} is torn between {a} ({wa}) and {b} ({wb})",
        },
        "explorer.story_random": {
            "zh": "未训练的随机权重：头还没有分工，“{q}” 在每个头里看哪里都只是碰巧。",
            "en": "Untrained random weights: the heads have no jobs yet; wherever “{q}” looks "
            "in a head is chance.",
        },
        "explorer.story_none": {
            "zh": "这些头都没有测出明确的分工；点一张图细看。",
            "en": "None of these heads has a measured job; click a map to inspect it.",
        },
        "explorer.story_other": {
            "zh": "“{q}” 不是这几个头学会提问的那类词（代词、动词、“的”前面的修饰语）；"
            "点一张图，看它在每个头里看哪里。",
            "en": "“{q}” is not the kind of word these heads learned to ask for (a pronoun, a "
            "verb, a modifier before 的); click a map to see where it looks in each head.",
        },
    },
)
# ---- end section: explorer ----------------------------------------------------------------------

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
            "zh": "每个词（共 {n} 个）变成一行向量。没有位置编码：向量只由词本身决定，同一个词不管"
            "出现在哪里，都是同一行。",
            "en": "Each of the {n} tokens becomes one row vector. No positions: the vector "
            "depends on the word alone, so the same word gets the same row wherever it stands.",
        },
        "steps.say1": {
            "zh": "自注意力：Q、K、V 都由同一句话的 X 乘不同的权重得到，提问的词和被问的词是同一批"
            "。{n} 个词同时提问：Q 的 {n} 行来自同一次矩阵乘法，不用一个等一个。这里显示所选的头（"
            "d_k = {d_k} 列）。",
            "en": "Self-attention: Q, K and V all come from the same sentence's X times different "
            "weights; the tokens asking are the tokens asked. All {n} tokens ask at once: the {n} "
            "rows of Q come from one matrix product, none waits for another. Shown for the chosen "
            "head (d_k = {d_k} columns).",
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
            "zh": "softmax 把每一行变成加起来为 1 的权重：这个词把注意力分给谁。没有因果掩码：每个"
            "词都能看到整句话，包括它后面的词。",
            "en": "Softmax turns each row into weights that sum to 1: how a token shares out its "
            "attention. No causal mask: every token sees the whole sentence, the words after it "
            "included.",
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
            "zh": "一行中的最大权重（{n} 个随机 key）",
            "en": "Largest weight in a row ({n} random keys)",
        },
        "scaling.max_y": {"zh": "最大权重", "en": "max weight"},
        "scaling.entropy": {"zh": "一行权重的熵（奈特）", "en": "Entropy of a row (nats)"},
        "scaling.entropy_y": {"zh": "熵", "en": "entropy"},
        "scaling.c": {
            "zh": "(c) 梯度消失：softmax 雅可比矩阵的范数",
            "en": "(c) Vanishing gradient: the softmax Jacobian's norm",
        },
        "scaling.jac": {
            "zh": "‖∂softmax/∂z‖ 随 d_k 的变化（实线：中位数，虚线：平均值）",
            "en": "‖∂softmax/∂z‖ as d_k grows (solid: median, dashed: mean)",
        },
        "scaling.jac_say": {
            "zh": "d_k = {d_k} 时：不缩放，‖J‖ 的中位数只有 {med_raw:.1e}，{small:.0%} 的行低于"
            " 0.01（平均值 {mean_raw:.3f} 是少数没饱和的行撑起来的）；缩放后中位数 "
            "{med_scaled:.2f}。传回 q 的梯度 ∂p/∂q = J·K/τ 要乘上这个 J：它的中位数不缩放 "
            "{gq_raw:.1e}，缩放后 {gq_scaled:.2f}。消失的是到达 q（再往回到 W_Q、W_K）的梯度。",
            "en": "At d_k = {d_k}: unscaled, the median ‖J‖ is only {med_raw:.1e} and {small:.0%} "
            "of rows are under 0.01 (the mean, {mean_raw:.3f}, is held up by a few unsaturated "
            "rows); scaled, the median is {med_scaled:.2f}. The gradient that reaches q, "
            "∂p/∂q = J·K/τ, goes through this J: its median is {gq_raw:.1e} unscaled and "
            "{gq_scaled:.2f} scaled. What vanishes is the gradient reaching q (and, further back, "
            "W_Q and W_K).",
        },
        "scaling.d": {
            "zh": "(d) 温度 τ：softmax(Q·Kᵀ/τ)",
            "en": "(d) Temperature τ: softmax(Q·Kᵀ/τ)",
        },
        "scaling.tau_map": {
            "zh": "你的句子，{model}，头 1，τ = {tau:.2f}",
            "en": "Your sentence, {model}, head 1, τ = {tau:.2f}",
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
            "再把输出拼起来乘 W_O。头多了，每个头变窄。不随 h 变的：参数量（W_Q、W_K、W_V、W_O "
            "共 4·d_model² 个），投影的乘加，以及 Q·Kᵀ 和 权重·V 的乘加（各 2n²·d_model 次浮点"
            "运算）。随 h 成倍增长的：softmax 的计算（h 张 n×n 的图）和要存的分数格子（h·n² 个）。",
            "en": "Split d_model into h slices; each head computes its own attention map in "
            "d_k = d_model/h dimensions, then the outputs are joined and multiplied by W_O. More "
            "heads, narrower heads. What stays the same for every h: the parameters (W_Q, W_K, "
            "W_V, W_O: 4·d_model² numbers), the projections' multiply-adds, and those of Q·Kᵀ "
            "and weights·V (2n²·d_model FLOPs each). What grows h-fold: the softmax work (h maps "
            "of n×n) and the score cells to store (h·n²).",
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
            "zh": "按你的句子（n = {n}）和 d_model = {d} 计算：参数量与 h 无关；浮点运算里只有 "
            "softmax 那部分（每个格子约 5 次）随 h 变成 h 倍，其余不变；要存的注意力格子 h·n² "
            "也是 h 倍。",
            "en": "For your sentence (n = {n}) and d_model = {d}: the parameters do not depend "
            "on h; of the FLOPs only the softmax's share (about 5 per cell) grows h-fold, the "
            "rest stays; the attention cells to store, h·n², grow h-fold too.",
        },
        "heads.try": {
            "zh": "试一试：在上面的对比里找一找，训练后哪个头把“他”连到“小明”？随机的头里有"
            "这样的头吗？再在侧栏换一句话，看这些分工标签是否仍然对得上。",
            "en": "Try this: in the comparison above, which trained head links 他 to 小明? Is "
            "there such a head among the random ones? Then type another sentence in the "
            "sidebar and see whether the measured jobs still fit.",
        },
        "heads.compare": {
            "zh": "随机的头和训练过的头",
            "en": "Random heads and trained heads",
        },
        "heads.compare_intro": {
            "zh": "同一个小模型、同一句话，每个头两张图：第 0 步（随机初始化）和训练结束。每张图的"
            "标题是那个头在没见过的句子上量出来的分工——随机的头没有分工，训练过的头各有各的活。"
            "这一节总是用训练好的小模型（{h} 个头，d_model = {d}），与侧栏的权重设置无关。",
            "en": "The same small model, the same sentence, two maps per head: step 0 (random "
            "initialisation) and the end of training. Each title is that head's job "
            "as measured on sentences it never saw — random heads have none, trained heads each "
            "have their own. This section always uses the trained demo model ({h} heads, "
            "d_model = {d}), whatever the sidebar's weights.",
        },
        "heads.compare_line": {
            "zh": "头 {head}：随机时 {before}；训练后 {after}。",
            "en": "Head {head}: random, {before}; trained, {after}.",
        },
        "heads.compare_missing": {
            "zh": "找不到训练好的小模型，这一节没法对比：{error}",
            "en": "The trained demo model is missing, so nothing to compare: {error}",
        },
        "heads.tag_random": {"zh": "随机（第 0 步）", "en": "Random (step 0)"},
        "heads.tag_trained": {"zh": "训练后", "en": "Trained"},
        "heads.noscale_note": {
            "zh": "√d_k 缩放现在关着：图里的权重是不缩放算的，而分工标签是训练时开着缩放量的。",
            "en": "√d_k scaling is off now: the maps are computed unscaled, while the job "
            "labels were measured with scaling on, as in training.",
        },
        "heads.grid": {"zh": "换个头数 h", "en": "Change the number of heads h"},
        "heads.weights_random": {
            "zh": "下面用侧栏的随机权重（d_model = {d}，种子 {seed}），头数在这里选。",
            "en": "Below: the sidebar's random weights (d_model = {d}, seed {seed}); pick the "
            "number of heads here.",
        },
        "heads.weights_trained": {
            "zh": "下面用侧栏选的训练好的小模型：它固定有 {h} 个头、d_model = {d}，所以这里不能"
            "换 h。"
            "想比较不同的 h，请在侧栏把权重换成随机初始化。",
            "en": "Below: the trained demo model chosen in the sidebar. It has {h} heads and "
            "d_model = {d} built in, so h cannot change here; to compare h, switch the sidebar's "
            "weights to random init.",
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
            "zh": "普通注意力同时存着 3 张 n×n float32 矩阵（分数、缩放后的分数、权重）：n = {n} "
            "时约 {mib:,.0f} MiB，要多等一会儿。",
            "en": "Plain attention holds 3 n×n float32 matrices at once (scores, scaled scores, "
            "weights): about {mib:,.0f} MiB at n = {n}; this takes a while.",
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
            "zh": "从数据读出：n 翻倍，普通注意力的内存 ×{mem:.1f}、时间 ×{time:.1f}（n ≥ {n} "
            "的各次翻倍的中位数，和拟合斜率用的是同一些点）；最后一次翻倍到 n = {last_n} 时内存 "
            "×{mem_last:.2f}。",
            "en": "Read off the data: doubling n multiplies plain attention's memory by {mem:.1f}"
            " and its time by {time:.1f} (medians of the doublings from n ≥ {n}, the points the "
            "slopes are fitted on); the last doubling, to n = {last_n}, took memory "
            "×{mem_last:.2f}.",
        },
        "cost.timed": {
            "zh": "计时的是 attention_core/attention.py 里可读的 scaled_dot_product_attention（和"
            "公式一样一步一个数组，单线程的 softmax）和 attention_core/tiled.py 的分块版本；"
            "attention_core/fast.py 里分块、多线程的加速版本不在这里计时。",
            "en": "Timed: the readable scaled_dot_product_attention of attention_core/attention.py "
            "(one array per step of the formula, a single-threaded softmax) and the tiled version "
            "of attention_core/tiled.py; the chunked, threaded speed-up in attention_core/fast.py "
            "is not what is timed here.",
        },
        "cost.col.n": {"zh": "n", "en": "n"},
        "cost.col.plain_s": {"zh": "普通 秒", "en": "plain s"},
        "cost.col.tiled_s": {"zh": "分块 秒", "en": "tiled s"},
        "cost.col.plain_bytes": {"zh": "普通 MiB", "en": "plain MiB"},
        "cost.col.tiled_bytes": {"zh": "分块 MiB", "en": "tiled MiB"},
        "cost.cells": {"zh": "你的句子：按词还是按字", "en": "Your sentence: words or characters"},
        "cost.fit_say": {
            "zh": "斜率用 np.polyfit 在对数坐标上拟合，只用 n ≥ {n} 的 {k} 个点（更小的 n 主要是固"
            "定开销）。斜率 2 表示 n 翻倍时，时间或内存变成 2² = 4 倍。",
            "en": "Slopes fitted with np.polyfit on log values, on the {k} points with n ≥ {n} "
            "(below, fixed overheads dominate). Slope 2 means doubling n multiplies the time or "
            "memory by 2² = 4.",
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
            "zh": "生成第 t 个词时，前面词的 K、V 不会变。这里比较三种做法：① 整层重算：每一步把整"
            "个注意力层在前缀上再跑一遍（所有 query、全部 t² 个分数、所有输出）；② 只重算 K、V：每"
            "一步重新投影前缀的 K、V，但只为新词算一行；③ KV 缓存：K、V 存下来，每一步只为新词投影"
            "、打分、加权。",
            "en": "When generating token t, the earlier tokens' K and V do not change. Three ways "
            "compared: ① rerun the layer: every step runs the whole attention layer on the prefix "
            "again (every query, all t² scores, every output); ② recompute K and V: every step "
            "projects the prefix's K and V again but computes only the new token's row; ③ KV "
            "cache: K and V are kept, every step projects, scores and mixes for the new token "
            "alone.",
        },
        "cost.kv_run": {"zh": "测量生成", "en": "Measure generation"},
        "cost.nocache": {
            "zh": "① 整层重算",
            "en": "① rerun the layer",
        },
        "cost.cache": {
            "zh": "③ KV 缓存",
            "en": "③ KV cache",
        },
        "cost.kv_time": {"zh": "生成 t 个词的总时间", "en": "Total time to generate t tokens"},
        "cost.kv_say": {
            "zh": "t = {t_len} 时，浮点运算：① 整层重算是 ③ 缓存的 {ratio:.1f} 倍，② 只重算 "
            "K、V 是 {ratio_kv:.1f} 倍。实测用时（各取最快的一次）：① 是 ③ 的 {speed:.1f} 倍，② 是 "
            "{speed_kv:.1f} 倍（d = {d} 很小，每一步的固定开销也算在用时里，浮点运算次数不含它）"
            "。缓存本身只占 {kib:,.0f} KiB；三种方式的输出最大相差 {diff:.1e}（只是浮点误差）。",
            "en": "At t = {t_len}, in FLOPs: ① rerunning the layer does {ratio:.1f}× the work "
            "of ③ the cache, ② recomputing K and V {ratio_kv:.1f}×. Measured time (the fastest "
            "run of each): ① takes "
            "{speed:.1f}× as long as ③, ② {speed_kv:.1f}× (d = {d} is small, so each step's "
            "fixed overhead is in the time but not in the FLOP count). The cache itself holds "
            "{kib:,.0f} KiB; the three ways' outputs differ by at most {diff:.1e} (float "
            "round-off).",
        },
        "cost.kv_noise": {
            "zh": "每个 t 三种做法轮流各跑 {r} 次，图和倍数用最快的一次；中位数比最快的一次最多慢 "
            "{noise:.0%}（机器是共用的，计时有噪声）。在 t ≥ {t0} 的点上拟合：用时 ① ∝ t^{a:.2f}、"
            "② ∝ t^{b:.2f}、③ ∝ t^{c:.2f}；同样拟合浮点运算数：t^{fa:.2f}、t^{fb:.2f}、t^{fc:.2f}"
            "。",
            "en": "For each t the three ways take turns, {r} runs each; the chart and the ratios "
            "use the fastest run, and the median was at most {noise:.0%} slower (a shared "
            "machine: timings are noisy). Fitted on t ≥ {t0}: time ① ∝ t^{a:.2f}, ② ∝ "
            "t^{b:.2f}, ③ ∝ t^{c:.2f}; the FLOP counts fitted the same way: t^{fa:.2f}, "
            "t^{fb:.2f}, t^{fc:.2f}.",
        },
        "cost.try": {
            "zh": "试一试：把范围拉到 8192 再测一次。普通注意力的内存斜率是不是还接近 2？分块注意"
            "力的斜率是多少，它为什么不是 0？",
            "en": "Try this: extend the range to 8192 and measure again. Is the plain memory "
            "slope still near 2? What is the tiled slope, and why is it not 0?",
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
            "zh": "“{q}”的 query 和每个 key 的相似度 q·k/√d_k（softmax 用的就是这个数）",
            "en": "Similarity q·k/√d_k of “{q}”'s query with every key (the number the softmax "
            "uses)",
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
        "library.gap": {
            "zh": "每加一项后，离最终输出的距离",
            "en": "Distance to the final output after each term",
        },
        "library.try": {
            "zh": "试一试：把查询词换成“他”以外的词，或者在侧栏关掉缩放，看看权重是不是集中到某一"
            "个词（一张索引卡）上。",
            "en": "Try this: pick another query than 他, or switch scaling off in the sidebar, "
            "and see whether the weight piles onto a single token (one index card).",
        },
        "teach.sqrt_ramp": {
            "zh": "√ 色阶",
            "en": "√ scale",
        },
        "teach.src.random": {
            "zh": "随机权重 W_Q…W_O（种子 {seed}）",
            "en": "random W_Q…W_O (seed {seed})",
        },
        "teach.src.trained": {
            "zh": "训练好的小模型（第 {step} 步）",
            "en": "trained demo model (step {step})",
        },
        "teach.scale_on": {
            "zh": "÷√d_k",
            "en": "÷√d_k",
        },
        "teach.scale_off": {
            "zh": "不缩放",
            "en": "no scaling",
        },
        "teach.causal_on": {
            "zh": "因果掩码",
            "en": "causal mask",
        },
        "teach.causal_what_if": {
            "zh": "因果掩码（假设：模型训练时没有用掩码）",
            "en": "causal mask (a what-if: the model was trained without one)",
        },
        "teach.causal_off": {
            "zh": "无掩码",
            "en": "no mask",
        },
        "teach.pos_True": {
            "zh": "加位置编码",
            "en": "with positions",
        },
        "teach.pos_False": {
            "zh": "无位置编码",
            "en": "no positions",
        },
        "teach.pos_trained": {
            "zh": "模型自带位置编码",
            "en": "the model's own positions",
        },
        "teach.mode_word": {
            "zh": "按词（jieba）",
            "en": "words (jieba)",
        },
        "teach.mode_char": {
            "zh": "按字",
            "en": "characters",
        },
        "teach.in_force": {
            "zh": "这一页用的是：{line}",
            "en": "This page uses: {line}",
        },
        "steps.walk": {
            "zh": "七步算完",
            "en": "Seven steps",
        },
        "steps.say0_pos": {
            "zh": "每个词（共 {n} 个）变成一行向量：词向量 + 它所在位置的正弦位置编码。所以同一个"
            "词出现在两个位置时，两行不一样。",
            "en": "Each of the {n} tokens becomes one row vector: its word vector plus the "
            "sinusoidal encoding of its position. So the same word at two places gets two "
            "different rows.",
        },
        "steps.say0_trained": {
            "zh": "训练好的模型自己算 X（{n} 行）：学出来的词性向量 + 词向量 + 末字向量 + 位置编码"
            "。同一个词出现在两个位置时，两行不一样。",
            "en": "The trained model builds its own X ({n} rows): a learned part-of-speech vector "
            "+ the word vector + a last-character vector + positions. The same word at two places "
            "gets two different rows.",
        },
        "steps.name3_off": {
            "zh": "④ 不缩放：S′ = S",
            "en": "④ No scaling: S′ = S",
        },
        "steps.say3_off": {
            "zh": "侧栏关掉了缩放，这一步被跳过：S′ = S，下一步的 softmax 直接用第 ③ 步的原始分数"
            "，所以这张图和上一张一模一样。",
            "en": "Scaling is off in the sidebar, so this step is skipped: S′ = S, and the next "
            "step's softmax takes step ③'s raw scores; this map is the previous one, unchanged.",
        },
        "steps.skipped": {
            "zh": "跳过",
            "en": "skipped",
        },
        "steps.say4_causal": {
            "zh": "因果掩码：第 i 行只能看 j ≤ i 的词。代码在 softmax 之前把右上三角（j > i）设为 "
            "−∞，e^−∞ = 0，所以这些格子的权重恰好是 0，每行仍加起来为 1。生成文字的模型就是这样："
            "还没写出来的词不能偷看。",
            "en": "Causal mask: row i may only look at tokens j ≤ i. Before the softmax the code "
            "sets the upper triangle (j > i) to −∞; e^−∞ = 0, so those weights are exactly 0 and "
            "every row still sums to 1. This is how a model that writes text works: it cannot "
            "peek at words not yet written.",
        },
        "steps.try_off": {
            "zh": "试一试：在第 ④ 步打开侧栏里的“除以 √d_k”，看分数怎样缩小，再看第 ⑤ 步的权重变得"
            "多“平”。",
            "en": "Try this: at step ④ switch “Scale by 1/√d_k” on in the sidebar, see the scores "
            "shrink, then how much flatter step ⑤ becomes.",
        },
        "steps.key2": {
            "zh": "对比的 key 词",
            "en": "Key to compare with",
        },
        "steps.compare": {
            "zh": "同一个 q，两个 k：逐维相乘再相加",
            "en": "One q, two k: multiply dimension by dimension, then add",
        },
        "steps.prod_title": {
            "zh": "逐维乘积 q_d × k_d（头 {h}）",
            "en": "Products q_d × k_d per dimension (head {h})",
        },
        "steps.dim": {
            "zh": "维度 d",
            "en": "dimension d",
        },
        "steps.prod_name": {
            "zh": "“{q}”·“{k}”，和 = {s:.3f}",
            "en": "“{q}”·“{k}”, sum = {s:.3f}",
        },
        "steps.compare_say": {
            "zh": "“{q}”的 q 逐维乘“{a}”的 k 再相加 = {sa:.3f}，乘“{b}”的 k = {sb:.3f}；softmax 之"
            "后（头 {h}）权重 {wa:.1%} 对 {wb:.1%}。",
            "en": "“{q}”'s q times “{a}”'s k, dimension by dimension, then added: {sa:.3f}; with “"
            "{b}”'s k: {sb:.3f}. After the softmax (head {h}) the weights are {wa:.1%} and "
            "{wb:.1%}.",
        },
        "steps.trained_grew": {
            "zh": "训练前（第 {step0} 步的权重）同样两个和是 {a0:.3f} 和 {b0:.3f}，差 {d0:.3f}；训"
            "练后差 {d1:.3f}。是训练让“{a}”的 K 和“{q}”的 Q 对上了。",
            "en": "Before training (the step-{step0} weights) the same two sums were {a0:.3f} and "
            "{b0:.3f}, a gap of {d0:.3f}; after training the gap is {d1:.3f}. Training made the K "
            "of “{a}” match the Q of “{q}”.",
        },
        "steps.trained_not": {
            "zh": "训练前（第 {step0} 步的权重）两个和是 {a0:.3f} 和 {b0:.3f}，差 {d0:.3f}；训练后"
            "差 {d1:.3f}。在这个头里，训练没有让“{a}”的 K 比“{b}”的更配“{q}”的 Q：换一个头看看。",
            "en": "Before training (the step-{step0} weights) the two sums were {a0:.3f} and "
            "{b0:.3f}, a gap of {d0:.3f}; after training the gap is {d1:.3f}. In this head "
            "training did not make “{a}”'s K fit “{q}”'s Q better than “{b}”'s: try another head.",
        },
        "steps.random_compare": {
            "zh": "这是随机权重：两个和谁大谁小纯属偶然。在侧栏换成“训练好的小模型”，看训练怎样改"
            "变这两个和。",
            "en": "These are random weights: which sum is larger is chance. Switch the sidebar to "
            "the trained demo model to see what training does to these two sums.",
        },
        "steps.why": {
            "zh": "注意力为什么赢了",
            "en": "Why attention won",
        },
        "steps.why1": {
            "zh": "**处处可导。** 上面每一步都是矩阵乘法、除法、exp、求和，全都能求导：梯度可以从"
            "输出一路传回 W_Q、W_K、W_V，所以这些权重可以学。“学出来的注意力”一页就是这样用 numpy "
            "训练出小模型的。",
            "en": "**Differentiable everywhere.** Every step above is a matrix product, a "
            "division, an exp or a sum, all differentiable: the gradient flows from the output "
            "back to W_Q, W_K and W_V, so they can be learned. The Learned attention page trains "
            "the small model exactly so, in numpy.",
        },
        "steps.why2": {
            "zh": "**所有行一起算。** 这句话的 {n} 行注意力来自一次矩阵乘法 Q·Kᵀ（每个头 "
            "{n}×{d_k} 乘 {d_k}×{n}），可以并行算完；RNN 要按顺序走 {n} 步，第 t 步必须等第 t−1 步"
            "算完。",
            "en": "**All rows at once.** The {n} rows of attention for this sentence come from "
            "one matrix product Q·Kᵀ per head ({n}×{d_k} times {d_k}×{n}), computed in parallel; "
            "an RNN must take {n} steps in order, step t waiting for step t−1.",
        },
        "scaling.med_raw": {
            "zh": "不缩放 · 中位数",
            "en": "unscaled · median",
        },
        "scaling.med_scaled": {
            "zh": "除以 √d_k · 中位数",
            "en": "divided by √d_k · median",
        },
        "scaling.mean_raw": {
            "zh": "不缩放 · 平均值",
            "en": "unscaled · mean",
        },
        "scaling.mean_scaled": {
            "zh": "除以 √d_k · 平均值",
            "en": "divided by √d_k · mean",
        },
        "scaling.tau_entropy": {
            "zh": "平均熵（左轴，奈特）",
            "en": "mean entropy (left axis, nats)",
        },
        "scaling.tau_max": {
            "zh": "平均最大权重（右轴，{n} 个 key）",
            "en": "mean max weight (right axis, {n} keys)",
        },
        "scaling.tau_max_causal": {
            "zh": "平均最大权重（右轴，第 i 行 i 个 key）",
            "en": "mean max weight (right axis, i keys in row i)",
        },
        "scaling.entropy_axis": {
            "zh": "熵（奈特）",
            "en": "entropy (nats)",
        },
        "scaling.max_axis": {
            "zh": "最大权重",
            "en": "max weight",
        },
        "cost.fit_say_all": {
            "zh": "斜率用 np.polyfit 在对数坐标上拟合，用了全部 {k} 个点：n ≥ {n} 的点不到 3 个，"
            "所以连固定开销占大头的小 n 也算进去了。斜率 2 表示 n 翻倍时，时间或内存变成 2² = 4 倍"
            "。",
            "en": "Slopes fitted with np.polyfit on log values, on all {k} points: fewer than "
            "three have n ≥ {n}, so small n, where fixed overheads dominate, are fitted too. "
            "Slope 2 means doubling n multiplies the time or memory by 2² = 4.",
        },
        "cost.plain_say": {
            "zh": "普通注意力在 n = {n} 时实测峰值 {mib:.1f} MiB，约等于 {k:.2f} 张 n×n float32 矩"
            "阵（分数、缩放后的分数、权重各一张）。",
            "en": "Plain attention peaked at {mib:.1f} MiB at n = {n}: about {k:.2f} n×n float32 "
            "matrices (scores, scaled scores and weights, one each).",
        },
        "cost.tiled_say": {
            "zh": "分块注意力的内存斜率是 {slope:.2f}：它从不存 n×n 矩阵，要存的是 n × d = n × {d} "
            "的输出和几块固定大小的临时数组，所以内存是 O(n)：随 n 增长，不是平的，但远不到 n²"
            "（n = {n0} → {n1}：{m0:.2f} → {m1:.2f} MiB）。",
            "en": "Tiled attention's memory slope is {slope:.2f}: it never holds an n×n matrix; it "
            "keeps the n × d = n × {d} output and a few fixed-size temporary blocks, so its memory "
            "is O(n): it grows with n, not flat, but nowhere near n² (n = {n0} → {n1}: {m0:.2f} → "
            "{m1:.2f} MiB).",
        },
        "cost.kvonly": {
            "zh": "② 只重算 K、V",
            "en": "② recompute K, V",
        },
        "order.random": {
            "zh": "这一页总是用随机权重（d_model = {d}，h = {h}，种子 {seed}）：它要演示没有位置编"
            "码时词序会丢失，而训练好的模型自带位置编码。",
            "en": "This page always uses random weights (d_model = {d}, h = {h}, seed {seed}): it "
            "shows word order getting lost without positions, and the trained model has its own "
            "positions built in.",
        },
        "order.random_trained": {
            "zh": "侧栏选的是训练好的小模型，但这一页用的是上面说的随机权重。",
            "en": "The sidebar chose the trained demo model, but this page uses the random "
            "weights above.",
        },
        "library.cards_raw": {
            "zh": "“{q}”的 query 和每个 key 的相似度 q·k（没有除以 √d_k：侧栏关掉了缩放，softmax "
            "直接用它）",
            "en": "Similarity q·k of “{q}”'s query with every key (not divided by √d_k: scaling "
            "is off, the softmax uses it as is)",
        },
        "library.masked": {
            "zh": "被遮住",
            "en": "masked",
        },
        "library.masked_say": {
            "zh": "因果掩码：“{q}”后面的 {m} 个词被遮住，softmax 前设为 −∞，权重恰好是 0；“最像”只"
            "在没被遮住的词里选。",
            "en": "Causal mask: the {m} tokens after “{q}” are masked, set to −∞ before the "
            "softmax, so their weight is exactly 0; “best match” is chosen among the unmasked "
            "ones.",
        },
        "library.rnn": {
            "zh": "换成 RNN 会怎样",
            "en": "What an RNN would hold instead",
        },
        "library.rnn_say": {
            "zh": "RNN 从左到右一个词一个词地读，每读一个词就把它揉进同一个状态向量（{d} 个数）。"
            "读到“{q}”时，前面 {k} 个词全都挤在左图最后一行这 {d} 个数里，要找回某一个词只能从里面"
            "猜；注意力的“{q}”这一行（右图）给每个词各留一个格子，直接看过去。",
            "en": "An RNN reads left to right, one token at a time, folding each into the same "
            "state vector ({d} numbers). By the time it reads “{q}”, the {k} tokens before it are "
            "all squeezed into the last row on the left, those {d} numbers; to get one word back "
            "it can only guess from them. Attention's row for “{q}” (right) keeps one cell per "
            "token and looks straight at it.",
        },
        "library.rnn_states": {
            "zh": "RNN：读完每个词后的状态",
            "en": "RNN: its state after each token",
        },
        "library.rnn_row": {
            "zh": "注意力：“{q}”这一行，每个词一个权重",
            "en": "Attention: the row of “{q}”, one weight per token",
        },
        "library.rnn_note": {
            "zh": "这个 RNN 是随机初始化的（没有训练，种子 0），这里只看它的形状：一个向量，一步接"
            "一步地改写。",
            "en": "This RNN is randomly initialised (untrained, seed 0): what matters here is its "
            "shape, one vector rewritten step after step.",
        },
        "library.state_axis": {
            "zh": "读到的词",
            "en": "token read",
        },
        "library.try_off": {
            "zh": "试一试：把查询词换成“他”以外的词，或者在侧栏打开缩放，看看权重会不会从某一个"
            "词（一张索引卡）上散开。",
            "en": "Try this: pick another query than 他, or switch scaling on in the sidebar, and "
            "see whether the weight spreads out from a single token (one index card).",
        },
        "library.cards_title": {
            "zh": "“{q}”和每张索引卡有多像",
            "en": "How alike “{q}” and each index card are",
        },
        "scaling.tau_note": {
            "zh": "这里除以的是 τ，不是 √d_k：侧栏的缩放开关对这一节不起作用。",
            "en": "Here the scores are divided by τ, not √d_k: the sidebar's scaling switch does "
            "not apply to this section.",
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
            "用 numpy 反向传播训练，只在三种地方被提问：在“他/她”处问“指的是谁”，在“X的Y”的 X "
            "处问“修饰哪个名词”，在动词处问“谁做的”。没有人告诉它该看哪里，也没有人规定哪个头"
            "管哪件事——注意力权重从不直接监督。每个头做什么，是训练完在没见过的句子上量出来的。",
            "en": "W_Q, W_K and W_V start random. This tiny model (one attention layer, {h} "
            "heads, d_model = {d}) is trained with numpy backprop and asked only three kinds of "
            "question: at 他/她 “who is meant?”, at X in “X的Y” “which noun do you describe?”, "
            "at a verb “who does it?”. Nobody tells it where to look or which head should do "
            "what — the attention weights are never supervised. What each head does is "
            "measured afterwards, on sentences it never saw.",
        },
        "learned.weights_note": {
            "zh": "本页始终显示训练好的小模型（第 0 步就是它的随机初始化），与侧栏的“权重来源”"
            "无关；侧栏的 d_model、头数、随机种子和位置编码在这里不起作用，√d_k 开关在下面。",
            "en": "This page always shows the trained demo model (its step 0 is its random "
            "initialisation), whatever the sidebar's “Weights” says; the sidebar's d_model, "
            "heads, seed and positions do not apply here, and the √d_k switch is below.",
        },
        "learned.step": {"zh": "训练步数", "en": "Training step"},
        "learned.scale": {"zh": "除以 √d_k（训练时开着）", "en": "Divide by √d_k (on in training)"},
        "learned.noscale_note": {
            "zh": "缩放关掉了：分数大了 √d_k = {r:.1f} 倍，softmax 变得更尖——这个模型训练时"
            "一直带着缩放，去掉它就等于把温度调低。各头的分工是在开着缩放时量的。",
            "en": "Scaling is off: the scores are √d_k = {r:.1f} times larger and the softmax "
            "gets sharper — the model was trained with scaling, so dropping it lowers the "
            "temperature. The heads' jobs were measured with scaling on.",
        },
        "learned.heads": {"zh": "训练中的 {h} 个头", "en": "The {h} heads during training"},
        "learned.maps_caption": {
            "zh": "图上方的 ▶ 和滑块在浏览器里直接换帧（共 {k} 个存下的训练步）。每个小标题是"
            "那一步在留出集上量出的分工。色阶是平方根的：小权重也看得出来。",
            "en": "▶ and the slider above the maps change frames in the browser ({k} saved "
            "training steps). Each map's title is its job as measured on the held-out split "
            "at that step. The colour ramp is square-root, so small weights stay visible.",
        },
        "learned.play": {"zh": "▶ 播放", "en": "▶ Play"},
        "learned.pause": {"zh": "‖ 暂停", "en": "‖ Pause"},
        "learned.frame_step": {"zh": "第 {step} 步", "en": "step {step}"},
        "learned.frame_read": {
            "zh": "{q} → {k} {w:.0%}（头 {head}）",
            "en": "{q} → {k} {w:.0%} (head {head})",
        },
        "learned.frame_undecided": {
            "zh": "头 {head} 拿不定 {q}：{k} {w:.0%}，{k2} {w2:.0%}",
            "en": "head {head} undecided on {q}: {k} {w:.0%}, {k2} {w2:.0%}",
        },
        "learned.frame_none": {
            "zh": "还没有头在找 {q} 指谁",
            "en": "no head finds whom {q} means yet",
        },
        "learned.slider_prefix": {"zh": "训练步数：", "en": "Training step: "},
        "learned.sqrt_ramp": {"zh": "权重 %<br>√ 色阶", "en": "weight %<br>√ scale"},
        "learned.head_label": {"zh": "头 {head} · {job}", "en": "Head {head} · {job}"},
        "learned.job_pct": {"zh": "{rel} · {acc:.0%}", "en": "{rel} · {acc:.0%}"},
        "learned.focus": {
            "zh": "第 {step} 步：头 {head}（{rel}，留出集 {acc:.0%}）让“{q}”看向“{k}”"
            "（权重 {w:.0%}）。",
            "en": "Step {step}: head {head} ({rel}, {acc:.0%} held out) has “{q}” look at "
            "“{k}” (weight {w:.0%}).",
        },
        "learned.focus_undecided": {
            "zh": "第 {step} 步：头 {head}（{rel}，留出集 {acc:.0%}）拿不定“{q}”指谁——"
            "“{k}” {w:.0%}，“{k2}” {w2:.0%}。",
            "en": "Step {step}: head {head} ({rel}, {acc:.0%} held out) is undecided whom "
            "“{q}” means — “{k}” {w:.0%}, “{k2}” {w2:.0%}.",
        },
        "learned.focus_none": {
            "zh": "第 {step} 步：还没有哪个头在做“{rel}”（留出集上都不到 {th:.0%}），所以说不出"
            "“{q}”指谁。",
            "en": "Step {step}: no head does “{rel}” yet (all under {th:.0%} on the held-out "
            "split), so nothing says whom “{q}” means.",
        },
        "learned.focus_no_pronoun": {
            "zh": "这句话里没有“他”或“她”。",
            "en": "This sentence has no 他 or 她.",
        },
        "learned.jobs": {
            "zh": "每个头什么时候找到了自己的活",
            "en": "When each head found its job",
        },
        "learned.jobs_intro": {
            "zh": "每张图是一种问题；每条线是一个头的命中率：在留出集的句子里，这个头那一行的"
            "最大权重落在正确词上的比例。★ 标出一个头从哪一步起一直保持在 {th:.0%} 以上。",
            "en": "One chart per question; each line is a head's hit rate: how often, on the "
            "held-out sentences, that head's largest weight in the row lands on the right word. "
            "★ marks the step from which a head stays at or above {th:.0%}.",
        },
        "learned.found": {
            "zh": "头 {head} 在第 {step} 步找到了它的活：{rel}（最后 {acc:.0%}）。",
            "en": "Head {head} found its job at step {step}: {rel} (finally {acc:.0%}).",
        },
        "learned.found_none": {
            "zh": "头 {head} 到最后也没有明确分工（最接近：{rel}，{acc:.0%}）。",
            "en": "Head {head} ends without a clear job (closest: {rel}, {acc:.0%}).",
        },
        "learned.head_acc_axis": {"zh": "命中率", "en": "hit rate"},
        "learned.head_chance": {
            "zh": "一个头碰巧看对 ≈ 1/n",
            "en": "one head right by chance ≈ 1/n",
        },
        "learned.job_mark": {"zh": "★ 找到分工", "en": "★ job found"},
        "learned.curves": {"zh": "损失和读出", "en": "Loss and read-outs"},
        "learned.loss": {"zh": "损失", "en": "Loss"},
        "learned.loss_train": {"zh": "训练损失（每步）", "en": "training loss (each step)"},
        "learned.loss_smooth": {"zh": "训练损失（滑动平均）", "en": "training loss (smoothed)"},
        "learned.loss_heldout": {"zh": "留出集损失", "en": "held-out loss"},
        "learned.x_step": {"zh": "训练步数", "en": "training step"},
        "learned.now": {"zh": "当前", "en": "now"},
        "learned.acc_title": {"zh": "留出集上的正确率", "en": "Rates on the held-out split"},
        "learned.acc_any": {
            "zh": "某个头最大权重落在正确词上的比例",
            "en": "rate at which some head's largest weight is on the right word",
        },
        "learned.acc_readout_rel": {"zh": "读出正确率 · {rel}", "en": "read-out accuracy · {rel}"},
        "learned.chance_readout": {
            "zh": "读出瞎猜的正确率 ≈ 1/n",
            "en": "read-out guessing at random ≈ 1/n",
        },
        "learned.chance_any": {
            "zh": "{h} 个头里碰巧有一个看对 ≈ 1−(1−1/n){sup}",
            "en": "some of {h} heads right by chance ≈ 1−(1−1/n){sup}",
        },
        "learned.metrics_caption": {
            "zh": "第 {step} 步：每种问题上命中率最高的头（留出集）",
            "en": "Step {step}: the head with the highest hit rate for each question (held out)",
        },
        "learned.metric_value": {"zh": "头 {head} · {acc:.0%}", "en": "head {head} · {acc:.0%}"},
        "learned.heldout_note": {
            "zh": "留出集的名字、物品、地点、形容词、动词和句式在训练中都没出现过。n 是句子的词数，"
            "各问题的机会水平按每句的 n 平均。",
            "en": "Held-out names, objects, places, adjectives, verbs and sentence patterns never "
            "appear in training. n is a sentence's token count; chance levels average over the "
            "sentences.",
        },
        "learned.what": {
            "zh": "第 {step} 步：每个头在做什么（留出集）",
            "en": "Step {step}: what each head does (held out)",
        },
        "learned.head_line": {
            "zh": "头 {head}：{rel}，{acc:.0%} 的行里最大权重落在这里（平均权重 {w:.2f}）",
            "en": "head {head}: {rel} — the largest weight lands there in {acc:.0%} of rows "
            "(mean weight {w:.2f})",
        },
        "learned.head_diffuse": {
            "zh": "头 {head}：没有明确分工（最接近的是{rel}，{acc:.0%}，不到 {th:.0%}）",
            "en": "head {head}: no clear job (closest: {rel}, {acc:.0%}, under {th:.0%})",
        },
        "learned.table_note": {
            "zh": "表中是每个头在每种关系上“最大权重落在正确词上”的比例；“看自己”和“看前一个词”"
            "从没被提问，只是量出来作对照。",
            "en": "Each cell: how often the head's largest weight lands on that relation's word. "
            "Nobody asks about “itself” or “the previous word”; they are measured for "
            "comparison.",
        },
        "learned.rel.pronoun_antecedent": {
            "zh": "代词 → 所指的人",
            "en": "pronoun → the person meant",
        },
        "learned.rel.modifier_noun": {
            "zh": "修饰语 → 被修饰的名词",
            "en": "modifier → its noun",
        },
        "learned.rel.verb_subject": {"zh": "动词 → 主语", "en": "verb → its subject"},
        "learned.rel.self": {"zh": "看自己", "en": "itself"},
        "learned.rel.previous": {"zh": "看前一个词", "en": "the previous word"},
        "learned.rel.diffuse": {"zh": "没有明确分工", "en": "no clear job"},
        "learned.col.head": {"zh": "头", "en": "head"},
        "learned.col.job": {"zh": "分工", "en": "job"},
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
        "learned.try": {
            "zh": "试一试：选“那天，小红在公园里看见了小刚，他很高兴。”——一男一女两个人，"
            "看代词头让“他”找谁；再把图上方的滑块拖回第 0 步对比。再选“小明和小刚去了公园，"
            "他很高兴。”——两个男生，谁都可能是“他”，看模型是不是拿不定。最后选“小明买了"
            "一辆旧的自行车，他很喜欢。”，看修饰语头里“旧”的一行指向哪里。",
            "en": "Try this: pick “那天，小红在公园里看见了小刚，他很高兴。” — two people, one of "
            "each gender — and see whom the pronoun head has 他 find; then drag the slider "
            "above the maps back to step 0. Pick “小明和小刚去了公园，他很高兴。” — two boys, "
            "either could be 他 (he): is the model undecided? Then pick “小明买了一辆旧的自行车，"
            "他很喜欢。” and see where the row of 旧 (old) points in the modifier head.",
        },
    },
)
# ---- end section: learned attention page -------------------------------------------------------

# ---- section: the lesson (ui/lesson/text.py) — owner: lesson helper ---------------------------
from ui.lesson.text import TABLE as LESSON_TABLE  # noqa: E402

_section("lesson", LESSON_TABLE)
