"""The rules of 升级 / 拖拉机: pure Python, no Django, deterministic from a seed."""
