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
        "nav.learned": {"zh": "训练出来的注意力", "en": "Learned attention"},
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
        "notice.only_punct": {
            "zh": "句子里只有标点符号：照样可以算，但注意力没有什么可看的。",
            "en": "The sentence holds only punctuation: it still runs, but there is little to see.",
        },
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
            "zh": "第 {pos} 个词的那一行，每个头一组柱子。",
            "en": "Row {pos} of every head, one group of bars per head.",
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
