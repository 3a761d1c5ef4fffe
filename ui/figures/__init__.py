"""The one figure kit: pure builders, arrays + token texts → plotly Figures (no Streamlit here).

base: the config, one layout, one font system (sizes from ui/palette.py), one text width;
maps: attention weights and any other matrix, axes: their token labels, glosses and margins;
plots: lines, bars, histograms; training: the learned page's curves, played: its played maps.
Pages call them as `figures.<builder>`.
"""

from ui.figures.base import plotly_config
from ui.figures.maps import (
    attention_heatmap,
    matrix_heatmap,
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

__all__ = [
    "RELATION_KEYS",
    "accuracy_figure",
    "attention_heatmap",
    "bars",
    "head_job_label",
    "histogram_pair",
    "job_curves_figure",
    "job_text",
    "loglog_fit",
    "loss_figure",
    "matrix_heatmap",
    "plotly_config",
    "sweep_lines",
    "training_maps_figure",
]
