"""Every rule module in this package registers its rules on import."""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    if _module.name != "common":
        importlib.import_module(f"{__name__}.{_module.name}")
