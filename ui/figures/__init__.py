"""The one figure kit: pure builders, arrays + token texts → plotly Figures (no Streamlit here).

base: the config, one layout, one font system (sizes from ui/palette.py), one text width;
maps: attention weights and any other matrix, axes: their token labels, glosses and margins;
plots: lines, bars, histograms; training: the learned page's curves, played: its played maps.
Pages call them as `figures.<builder>`.
"""

from ui.figures.base import (
    PLOTLY_CONFIG,
    STILL_AXIS,
    STILL_LAYOUT,
    compact,
    decode_array,
    fonts,
    head_colour,
    hold_still,
    plotly_config,
    text_px,
    token_labels,
    weights_to_pct,
)
from ui.figures.maps import (
    attention_heatmap,
    cell_font,
    cell_texts,
    map_height,
    matrix_heatmap,
    score_limit,
)
from ui.figures.played import training_maps_figure
from ui.figures.plots import bars, histogram_pair, loglog_fit, sweep_lines
from ui.figures.training import (
    RELATION_KEYS,
    accuracy_figure,
    head_job_label,
    job_curves_figure,
    job_text,
    loss_figure,
)

# The palette's names that tests and pages read here (one definition, in ui/palette.py).
from ui.palette import (
    BLACK,
    HEAD_COLOURS,
    LABEL_CHARS,
    MAX_CELL_NUMBERS,
    SIGNED_SCALE,
    WEIGHT_SCALE,
    WHITE,
    contrast,
    luminance,
    scale_colours,
    text_on,
)
from ui.palette import channels as _channels

__all__ = [
    "BLACK",
    "HEAD_COLOURS",
    "LABEL_CHARS",
    "MAX_CELL_NUMBERS",
    "PLOTLY_CONFIG",
    "RELATION_KEYS",
    "SIGNED_SCALE",
    "STILL_AXIS",
    "STILL_LAYOUT",
    "WEIGHT_SCALE",
    "WHITE",
    "_channels",
    "accuracy_figure",
    "attention_heatmap",
    "bars",
    "cell_font",
    "cell_texts",
    "compact",
    "contrast",
    "decode_array",
    "fonts",
    "grid_columns",
    "grouped_bars",
    "head_colour",
    "head_heatmaps",
    "head_job_label",
    "histogram_pair",
    "hold_still",
    "job_curves_figure",
    "job_text",
    "loglog_fit",
    "loss_figure",
    "luminance",
    "map_height",
    "matrix_heatmap",
    "plotly_config",
    "scale_colours",
    "score_limit",
    "square_offset",
    "sweep_lines",
    "text_on",
    "text_px",
    "token_labels",
    "training_maps_figure",
    "vector_rows",
    "weights_to_pct",
]
