"""Korean/English text analysis shared by every stage."""

from geunkeo.text.analyzer import Analyzer, get_analyzer
from geunkeo.text.kiwi import get_kiwi

__all__ = ["Analyzer", "get_analyzer", "get_kiwi"]
