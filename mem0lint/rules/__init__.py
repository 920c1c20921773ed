"""Every rule module in this package (and its subpackages) registers its rules on import."""

import importlib
import pkgutil

for _module in pkgutil.walk_packages(__path__, prefix=f"{__name__}."):
    if _module.name.rsplit(".", 1)[-1] != "common":
        importlib.import_module(_module.name)
