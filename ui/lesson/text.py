"""Every string of the lesson (/lesson), zh and en; registered into ui/text.py's TEXT as "lesson".

Templates hold {name} fields that the deck fills in the browser (a11y.js `fmt`) or Python fills
with t(key, lang, **fmt). The teacher's notes are Markdown: notes.zh.md and notes.en.md.
"""

from __future__ import annotations

FRAME = {
    "lesson.nav": {"zh": "课堂：十幕讲完注意力", "en": "The lesson: attention in ten scenes"},
    "lesson.open": {
        "zh": "▶ 上课：十幕讲完注意力（投影用，按 → 翻页）",
        "en": "▶ Teach it: the lesson in ten scenes (for a projector, → turns the page)",
    },
    "lesson.strip": {"zh": "十幕", "en": "Scenes"},
    "lesson.scene": {"zh": "§{k} · {title}", "en": "§{k} · {title}"},
    "lesson.step": {"zh": "第 {i}/{n} 步", "en": "Step {i} of {n}"},
    "lesson.prev": {"zh": "上一步", "en": "Back"},
    "lesson.next": {"zh": "下一步", "en": "Next"},
    "lesson.notes": {"zh": "讲稿", "en": "Notes"},
    "lesson.notes_title": {"zh": "讲稿（只给老师看）", "en": "Teacher's notes"},
    "lesson.full": {"zh": "全屏", "en": "Full screen"},
    "lesson.keys": {"zh": "按键", "en": "Keys"},
    "lesson.close": {"zh": "关闭", "en": "Close"},
    "lesson.edit": {"zh": "换句子", "en": "Sentence"},
    "lesson.sentence": {"zh": "这一课用的句子", "en": "The lesson's sentence"},
    "lesson.apply": {"zh": "用这句", "en": "Use it"},
    "lesson.example": {"zh": "例句", "en": "Example"},
    "lesson.live": {"zh": "第 {k} 幕，共 {n} 幕：{title}", "en": "Scene {k} of {n}: {title}"},
    "lesson.live_step": {"zh": "第 {i}/{n} 步：{name}", "en": "Step {i} of {n}: {name}"},
    "lesson.blackout": {"zh": "黑屏：按任意键回来", "en": "Screen paused: press any key"},
    "lesson.at_bad": {
        "zh": "链接里的 at={value} 不是一幕的编号（1–{n}），已打开第 {used} 幕。",
        "en": "The link's at={value} is not a scene number (1–{n}); opened scene {used}.",
    },
    "lesson.weights_trained": {
        "zh": "训练好的小模型（第 {step} 步）· d_model = {d} · h = {h}",
        "en": "the trained model (step {step}) · d_model = {d} · h = {h}",
    },
    "lesson.weights_random": {
        "zh": "随机权重 · d_model = {d} · h = {h} · 种子 {seed}",
        "en": "random weights · d_model = {d} · h = {h} · seed {seed}",
    },
    "lesson.scale_on": {"zh": "除以 √d_k", "en": "÷ √d_k"},
    "lesson.scale_off": {"zh": "不除 √d_k", "en": "no ÷ √d_k"},
    "lesson.causal_on": {"zh": "因果掩码", "en": "causal mask"},
    "lesson.head": {"zh": "头 {i}", "en": "head {i}"},
    "lesson.masked": {"zh": "（遮住）", "en": "(masked)"},
    "lesson.measuring": {"zh": "正在测量……", "en": "Measuring…"},
    # -- scenes this sentence cannot show, and the example that can
    "lesson.need.empty": {
        "zh": "句子是空的：这一幕没有词可看。",
        "en": "The sentence is empty: this scene has no words to show.",
    },
    "lesson.need.two": {
        "zh": "这句话只有一个词：这一幕要比较至少两个词。",
        "en": "This sentence has one token: this scene compares at least two.",
    },
    "lesson.need.pronoun": {
        "zh": "这句话里没有“他”或“她”：这一幕要问代词指谁。",
        "en": "This sentence has no 他 or 她 (he, she): this scene asks whom a pronoun means.",
    },
    "lesson.need.trained": {
        "zh": "找不到训练好的权重：这一幕要用训练好的模型。",
        "en": "The trained weights are missing: this scene needs the trained model.",
    },
    "lesson.show_example": {"zh": "用例句演示这一幕", "en": "Show this scene on the example"},
    "lesson.on_example": {
        "zh": "这一幕用例句演示：{s} 你的句子还在，其他幕照样用它。",
        "en": "This scene runs on the example: {s} Your sentence is kept; the other scenes use it.",
    },
    "lesson.back_mine": {"zh": "回到我的句子", "en": "Back to my sentence"},
    # -- predict, then reveal
    "lesson.quiz.guess": {"zh": "先猜一猜：", "en": "Guess first:"},
    "lesson.quiz.reveal": {"zh": "揭晓（→）", "en": "Reveal (→)"},
    "lesson.quiz.right": {"zh": "✓ 猜对了。", "en": "✓ Right."},
    "lesson.quiz.wrong": {"zh": "✗ 不对。", "en": "✗ Not quite."},
    "lesson.quiz.open": {"zh": "没有标准答案：", "en": "No right answer:"},
    "lesson.quiz.answer": {"zh": "答案：{a}", "en": "Answer: {a}"},
    # -- the key map (? or the Keys button), reveal.js's conventions
    "lesson.k.next": {"zh": "→ 空格 PageDown：下一步 / 下一幕", "en": "→ Space PageDown: next"},
    "lesson.k.prev": {"zh": "← PageUp 退格：上一步 / 上一幕", "en": "← PageUp Backspace: back"},
    "lesson.k.ends": {"zh": "Home / End：第一幕 / 最后一幕", "en": "Home / End: first / last"},
    "lesson.k.jump": {"zh": "1–9、0：跳到 §1–§9、§10", "en": "1–9, 0: jump to §1–§9, §10"},
    "lesson.k.notes": {"zh": "S：讲稿", "en": "S: teacher's notes"},
    "lesson.k.full": {"zh": "F：全屏", "en": "F: full screen"},
    "lesson.k.black": {"zh": "B 或 .：黑屏", "en": "B or .: pause (black screen)"},
    "lesson.k.help": {"zh": "?：这张按键表", "en": "?: this list"},
    "lesson.k.remote": {
        "zh": "翻页笔的上下页键同样可用；在输入框里打字时按键不翻页。",
        "en": "A presenter remote's page keys work too; typing in a box never turns the page.",
    },
}

WORDS = {  # §1 – §3
    "lesson.s1.title": {"zh": "“{q}”指的是谁？", "en": "Whom does “{q}” mean?"},
    "lesson.s1.step0": {"zh": "先猜", "en": "Guess"},
    "lesson.s1.step1": {"zh": "揭晓：注意力头的答案", "en": "The head's answer"},
    "lesson.s1.step2": {"zh": "对比：RNN 一格一格传", "en": "Contrast: an RNN's chain"},
    "lesson.s1.question": {"zh": "“{q}”看向哪个词？", "en": "Which word does “{q}” look at?"},
    "lesson.s1.take": {
        "zh": "注意力让“{q}”一步直达句中任何一个词；RNN 得把信息一格一格传 {hops} 步。",
        "en": "Attention links “{q}” to any word in one step; an RNN passes it along {hops} steps.",
    },
    "lesson.s1.right": {
        "zh": "头 {head}（测得的分工：代词 → 所指的人）把“{q}”{w} 的注意力给了“{k}”。",
        "en": "Head {head} (measured job: pronoun → the person meant) gives “{k}” {w} "
        "of the attention of “{q}”.",
    },
    "lesson.s1.wrong": {
        "zh": "头 {head} 只给“{c}”{wc}，给“{k}”的是 {w}。",
        "en": "Head {head} gives “{c}” only {wc}; it gives “{k}” {w}.",
    },
    "lesson.s1.undecided": {
        "zh": "这个头自己也拿不定：“{a}”{wa}，“{b}”{wb}。没有标准答案，正好讨论。",
        "en": "The head itself is torn: “{a}” {wa}, “{b}” {wb}. No right answer: a good "
        "thing to discuss.",
    },
    "lesson.s1.no_head": {
        "zh": "训练好的模型里没有哪个头测出“代词 → 所指的人”的分工，这里不判对错。",
        "en": "No head of the trained model measured as pronoun → person: nothing is judged.",
    },
    "lesson.s1.bars": {
        "zh": "头 {head}（{job}）：“{q}”的注意力分给了谁",
        "en": "Head {head} ({job}): where “{q}” looks",
    },
    "lesson.s1.rnn": {
        "zh": "RNN 从左到右读，每步只留一个向量",
        "en": "An RNN reads left to right, one vector at a time",
    },
    "lesson.s1.hops": {
        "zh": "“{k}” → “{q}”：注意力 1 步，RNN {hops} 步",
        "en": "“{k}” → “{q}”: attention 1 step, RNN {hops} steps",
    },
    "lesson.s1.alt": {"zh": "“{q}”这一行：{links}", "en": "The row of “{q}”: {links}"},
    "lesson.s2.title": {
        "zh": "图书馆：一个查询，比对每一张卡片",
        "en": "The library: one query against every card",
    },
    "lesson.s2.step0": {"zh": "每张卡片的相似度", "en": "Each card's match"},
    "lesson.s2.step1": {"zh": "softmax：相似度变成份额", "en": "Softmax: matches become shares"},
    "lesson.s2.step2": {"zh": "按份额混合内容 V", "en": "Mix the contents V by share"},
    "lesson.s2.take": {
        "zh": "比一比（q·k）→ 换成份额（softmax）→ 按份额混合内容（·V）：一次“软”查找。",
        "en": "Compare (q·k), turn into shares (softmax), mix the contents (·V): a soft lookup.",
    },
    "lesson.s2.pick": {"zh": "查询词（点一个）", "en": "Query (tap a word)"},
    "lesson.s2.match": {"zh": "卡片上的数：相似度 {f}", "en": "On each card: the match {f}"},
    "lesson.s2.share": {"zh": "份额", "en": "share"},
    "lesson.s2.mix": {
        "zh": "混合后的输出：{d} 个数（头 {head}）",
        "en": "The mixed output: {d} numbers (head {head})",
    },
    "lesson.s2.top": {
        "zh": "前 {m} 张卡片占 {share}",
        "en": "The top {m} cards hold {share}",
    },
    "lesson.s2.alt": {
        "zh": "“{q}”对每张卡片：{links}",
        "en": "“{q}” against every card: {links}",
    },
    "lesson.s3.title": {"zh": "一个词的三张脸：Q、K、V", "en": "One word, three faces: Q, K, V"},
    "lesson.s3.step0": {"zh": "X：每个词一行向量", "en": "X: one vector per word"},
    "lesson.s3.step1": {"zh": "Q = X·W_Q：我在找什么", "en": "Q = X·W_Q: what I look for"},
    "lesson.s3.step2": {"zh": "K = X·W_K：我凭什么被找到", "en": "K = X·W_K: how I am found"},
    "lesson.s3.step3": {"zh": "V = X·W_V：我能提供什么", "en": "V = X·W_V: what I hand over"},
    "lesson.s3.take": {
        "zh": "Q、K、V 都来自这句话本身：同一个 X 乘上三个学到的矩阵。",
        "en": "Q, K and V all come from the sentence itself: one X times three learned matrices.",
    },
    "lesson.s3.pick": {"zh": "看哪个词", "en": "Which word"},
    "lesson.s3.x": {"zh": "“{q}”的 x：{d} 个数", "en": "x of “{q}”: {d} numbers"},
    "lesson.s3.row": {
        "zh": "“{q}”的 {name}：{d} 个数，绝对值最大的在第 {j} 维",
        "en": "{name} of “{q}”: {d} numbers, the largest in size in column {j}",
    },
    "lesson.s3.alt": {
        "zh": "{name} 是 {n} × {d} 的矩阵，每个词一行；“{q}”那一行框了出来。",
        "en": "{name} is an {n} × {d} matrix, one row per word; the row of “{q}” is outlined.",
    },
}

FORMULA = {  # §4 – §5
    "lesson.s4.title": {
        "zh": "四步算出注意力：Q·Kᵀ → ÷√d_k → softmax → ·V",
        "en": "Four steps: Q·Kᵀ → ÷√d_k → softmax → ·V",
    },
    "lesson.s4.step0": {"zh": "① Q·Kᵀ：每对词比一比", "en": "① Q·Kᵀ: compare every pair"},
    "lesson.s4.step1": {"zh": "② ÷√d_k = {s}：缩小分数", "en": "② ÷√d_k = {s}: shrink the scores"},
    "lesson.s4.step1_off": {"zh": "② ÷1：缩放关着", "en": "② ÷1: scaling is off"},
    "lesson.s4.step2": {"zh": "③ softmax：每行和为 1", "en": "③ softmax: each row sums to 1"},
    "lesson.s4.step3": {"zh": "④ ·V：按份额混合内容", "en": "④ ·V: mix the contents"},
    "lesson.s4.take": {
        "zh": "softmax(Q·Kᵀ/√d_k)·V：比较、缩放、归一、加权求和，用的都是这句话的真数字。",
        "en": "softmax(Q·Kᵀ/√d_k)·V: compare, scale, normalise, mix, on this sentence's numbers.",
    },
    "lesson.s4.take_off": {
        "zh": "现在缩放关着：第 ② 步除以 1，分数原样进 softmax。",
        "en": "Scaling is off now: step ② divides by 1, the scores enter softmax as they are.",
    },
    "lesson.s4.play": {"zh": "▶ 连放四步", "en": "▶ Play all four"},
    "lesson.s4.row": {"zh": "“{q}”这一行", "en": "Row of “{q}”"},
    "lesson.s4.sum": {"zh": "和 = {v}", "en": "sum = {v}"},
    "lesson.s4.out": {"zh": "输出 {n} × {d}", "en": "output {n} × {d}"},
    "lesson.s4.alt": {
        "zh": "头 {head}，{name}：{n} × {m} 的矩阵。{rows}",
        "en": "Head {head}, {name}: an {n} × {m} matrix. {rows}",
    },
    "lesson.s5.title": {"zh": "为什么要除以 √d_k？", "en": "Why divide by √d_k?"},
    "lesson.s5.step0": {"zh": "实测：q·k 的方差 ≈ d_k", "en": "Measured: var(q·k) ≈ d_k"},
    "lesson.s5.step1": {"zh": "先猜：不除 √d_k 会怎样？", "en": "Guess: what if we do not divide?"},
    "lesson.s5.step2": {"zh": "揭晓：关掉 √d_k", "en": "Reveal: √d_k off"},
    "lesson.s5.step3": {"zh": "拖动温度 τ", "en": "Sweep the temperature τ"},
    "lesson.s5.take": {
        "zh": "d_k 越大，q·k 的波动越大；不除 √d_k，softmax 就饱和："
        "份额挤到少数几个词上，梯度跟着变小。",
        "en": "var(q·k) grows with d_k; without ÷√d_k softmax saturates: the shares pile onto "
        "a few words and the gradients shrink.",
    },
    "lesson.s5.var": {
        "zh": "q·k 的方差（实测，每个 d_k {m} 对随机向量）",
        "en": "var(q·k), measured on {m} random pairs per d_k",
    },
    "lesson.s5.raw": {"zh": "不缩放", "en": "raw"},
    "lesson.s5.scaled": {"zh": "除以 √d_k", "en": "÷ √d_k"},
    "lesson.s5.line": {"zh": "方差 = d_k", "en": "var = d_k"},
    "lesson.s5.question": {
        "zh": "不除 √d_k，“{q}”这一行会怎样？",
        "en": "Without ÷√d_k, what happens to the row of “{q}”?",
    },
    "lesson.s5.c_sharp": {
        "zh": "更尖：份额挤到少数几个词上",
        "en": "Sharper: shares pile onto few words",
    },
    "lesson.s5.c_flat": {"zh": "更平：大家分得更匀", "en": "Flatter: shares even out"},
    "lesson.s5.c_same": {"zh": "几乎不变", "en": "Hardly changes"},
    "lesson.s5.why": {
        "zh": "“{q}”这一行：最大份额 {m1} → {m0}，熵 {h1} → {h0} 比特。",
        "en": "Row of “{q}”: top share {m1} → {m0}, entropy {h1} → {h0} bits.",
    },
    "lesson.s5.switch": {"zh": "除以 √d_k", "en": "Divide by √d_k"},
    "lesson.s5.tau": {"zh": "温度 τ", "en": "Temperature τ"},
    "lesson.s5.tau_value": {"zh": "τ = {v}（√d_k = {s}）", "en": "τ = {v} (√d_k = {s})"},
    "lesson.s5.sweep": {"zh": "▶ 扫一遍 τ", "en": "▶ Sweep τ"},
    "lesson.s5.map": {"zh": "头 {head}：softmax(Q·Kᵀ/τ)", "en": "Head {head}: softmax(Q·Kᵀ/τ)"},
    "lesson.s5.stats": {
        "zh": "“{q}”这一行：最大份额 {m}，熵 {h} 比特",
        "en": "Row of “{q}”: top share {m}, entropy {h} bits",
    },
}

HEADS = {  # §6 – §10
    "lesson.s6.title": {"zh": "多头：每个头学一种分工", "en": "Many heads: each learns a job"},
    "lesson.s6.step0": {"zh": "每个头一张图，标着测得的分工", "en": "One map per head, its job"},
    "lesson.s6.take": {
        "zh": "{h} 个头各用 {dk} 维，和一个 {d} 维的头计算量几乎一样（{many} 对 {one} 次运算）。",
        "en": "{h} heads of {dk} dimensions cost about what one head of {d} does "
        "({many} vs {one} operations).",
    },
    "lesson.s6.before": {"zh": "训练前（第 {step} 步）", "en": "Before training (step {step})"},
    "lesson.s6.after": {"zh": "训练后（第 {step} 步）", "en": "After training (step {step})"},
    "lesson.s6.when": {"zh": "看哪个时刻", "en": "When"},
    "lesson.s6.job": {"zh": "头 {head} · {job}", "en": "Head {head} · {job}"},
    "lesson.s7.title": {
        "zh": "句子长一倍，代价是几倍？",
        "en": "Twice the words: how much more work?",
    },
    "lesson.s7.step0": {"zh": "n × n 个格子", "en": "n × n cells"},
    "lesson.s7.step1": {"zh": "实测：时间和内存", "en": "Measured: time and memory"},
    "lesson.s7.step2": {"zh": "KV 缓存：每个新词只算一行", "en": "KV cache: one new row per word"},
    "lesson.s7.take": {
        "zh": "分数表有 n² 格：n 翻倍，格子约 ×4，实测时间 ×{t}、内存 ×{m}；"
        "KV 缓存让每个新词只算一行。",
        "en": "The score table has n² cells: double n and the cells ×4, measured time ×{t}, "
        "memory ×{m}; a KV cache makes each new word one row.",
    },
    "lesson.s7.take_wait": {
        "zh": "分数表有 n² 格：n 翻倍，格子 ×4；KV 缓存让每个新词只算一行。",
        "en": "The score table has n² cells: double n and the cells ×4; a KV cache makes each "
        "new word one row.",
    },
    "lesson.s7.n": {"zh": "句子长度 n", "en": "Length n"},
    "lesson.s7.cells": {"zh": "n = {n}：{cells} 格", "en": "n = {n}: {cells} cells"},
    "lesson.s7.yours": {
        "zh": "你的句子：{n} 个词 → {cells} 格（按字切：{nc} 个 → {cc} 格）",
        "en": "Your sentence: {n} tokens → {cells} cells (by character: {nc} → {cc})",
    },
    "lesson.s7.measured": {
        "zh": "本机实测：numpy 的普通注意力，d = {d}",
        "en": "Measured here: plain numpy attention, d = {d}",
    },
    "lesson.s7.ms": {"zh": "时间 ms", "en": "time, ms"},
    "lesson.s7.mib": {"zh": "内存 MiB", "en": "memory, MiB"},
    "lesson.s7.slope": {"zh": "斜率 {s}", "en": "slope {s}"},
    "lesson.s7.again": {"zh": "重新测量", "en": "Measure again"},
    "lesson.s7.kv": {
        "zh": "生成 t 个词的运算次数（计数，d = {d}）",
        "en": "Operations to generate t words (counted, d = {d})",
    },
    "lesson.s7.kv_with": {"zh": "用 KV 缓存", "en": "with a KV cache"},
    "lesson.s7.kv_without": {"zh": "每次重算", "en": "recompute everything"},
    "lesson.s7.kv_ratio": {"zh": "t = {t}：省 {r} 倍", "en": "t = {t}: {r}× fewer"},
    "lesson.s8.title": {
        "zh": "我打你，你打我：注意力分得清吗？",
        "en": "我打你 or 你打我: can attention tell?",
    },
    "lesson.s8.step0": {"zh": "“我打你”的注意力图", "en": "The map of 我打你 (I hit you)"},
    "lesson.s8.step1": {"zh": "揭晓“你打我”", "en": "Reveal 你打我 (you hit me)"},
    "lesson.s8.step2": {"zh": "加上位置编码", "en": "Add positions"},
    "lesson.s8.take": {
        "zh": "只有注意力时句子是一袋词：换了顺序，图只是跟着换行换列；加上位置，顺序才算数。",
        "en": "Attention alone sees a bag of words: reorder them and the map only swaps rows "
        "and columns; positions make order count.",
    },
    "lesson.s8.question": {
        "zh": "不加位置编码，“你打我”的图和“我打你”的会不一样吗？",
        "en": "Without positions, will 你打我 give a different map from 我打你?",
    },
    "lesson.s8.c_diff": {"zh": "不一样：数字会变", "en": "Different: new numbers"},
    "lesson.s8.c_perm": {
        "zh": "同样的数字，只是换了行和列",
        "en": "Same numbers, rows and columns swapped",
    },
    "lesson.s8.c_same": {"zh": "一模一样，连位置都不变", "en": "Identical, cell for cell"},
    "lesson.s8.why": {
        "zh": "按词对齐后，两张图最大相差 {v}：只是换了行和列。",
        "en": "Matched word by word, the maps differ by at most {v}: only rows and columns moved.",
    },
    "lesson.s8.why_pos": {
        "zh": "加了位置编码：按词对齐后最大相差 {v}，顺序起作用了。",
        "en": "With positions: matched word by word they differ by up to {v}; order counts.",
    },
    "lesson.s8.pos": {"zh": "位置编码", "en": "Positions"},
    "lesson.s8.map": {"zh": "“{s}”（头 1）", "en": "“{s}” (head 1)"},
    "lesson.s8.weights": {
        "zh": "随机权重 d_model = {d}，h = {h}，种子 {seed}；不加因果掩码",
        "en": "random weights d_model = {d}, h = {h}, seed {seed}; no causal mask",
    },
    "lesson.s9.title": {
        "zh": "numpy 骨架：加上因果掩码会怎样？",
        "en": "The numpy skeleton: what does a causal mask do?",
    },
    "lesson.s9.step0": {"zh": "十行代码，一张图", "en": "Ten lines, one map"},
    "lesson.s9.take": {
        "zh": "整层注意力就这几行 numpy；因果掩码把未来设成 −∞：每个词只看自己和前面的词。",
        "en": "The whole layer is a few numpy lines; a causal mask sets the future to −∞: "
        "each word sees only itself and the words before.",
    },
    "lesson.s9.switch": {"zh": "因果掩码", "en": "Causal mask"},
    "lesson.s9.code": {
        "zh": "这几行算出了这张图（ui/lesson/skeleton.py）",
        "en": "These lines made this map (ui/lesson/skeleton.py)",
    },
    "lesson.s9.batch": {
        "zh": "多一个批次维 (b, h, n, d_k) 也不用改一行。",
        "en": "A batch axis (b, h, n, d_k) needs no change.",
    },
    "lesson.s9.map": {"zh": "头 {head}", "en": "Head {head}"},
    "lesson.s10.title": {
        "zh": "注意力为什么赢了：可微，而且并行",
        "en": "Why attention won: differentiable and parallel",
    },
    "lesson.s10.step0": {"zh": "并行：所有行一次算完", "en": "Parallel: every row at once"},
    "lesson.s10.step1": {"zh": "可微：梯度下降教会了代词头", "en": "Differentiable: it was taught"},
    "lesson.s10.take": {
        "zh": "每一行同时算，所以能并行；每一步都可微，所以梯度下降能教会它。",
        "en": "Every row at once, so it runs in parallel; every step differentiable, so "
        "gradient descent can teach it.",
    },
    "lesson.s10.rnn": {"zh": "RNN：第 {t}/{n} 步", "en": "RNN: step {t} of {n}"},
    "lesson.s10.att": {
        "zh": "注意力：1 步，{n} 行同时",
        "en": "Attention: 1 step, {n} rows at once",
    },
    "lesson.s10.play": {"zh": "▶ 再放一遍", "en": "▶ Play again"},
    "lesson.s10.curve": {
        "zh": "代词头（头 {head}）在测试句上的命中率",
        "en": "The pronoun head (head {head}) on held-out sentences",
    },
    "lesson.s10.steps": {"zh": "训练步", "en": "training step"},
    "lesson.s10.hits": {"zh": "命中率", "en": "hit rate"},
    "lesson.s10.onset": {"zh": "第 {step} 步起学会", "en": "learned from step {step}"},
    "lesson.s10.no_curve": {
        "zh": "训练好的模型里没有代词头：没有学习曲线可画。",
        "en": "The trained model has no pronoun head: no learning curve to draw.",
    },
}

TABLE = {**FRAME, **WORDS, **FORMULA, **HEADS}
