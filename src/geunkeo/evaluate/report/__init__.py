"""Evaluation reports: dashboard numbers (dashboard.py), plotly figures (figures.py), the HTML page (html.py)."""
