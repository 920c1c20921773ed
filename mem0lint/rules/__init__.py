"""Every rule module in this package (and its subpackages) registers its rules on import."""

import importlib
import pkgutil

from mem0lint.rule import Rule


def all_rules() -> "dict[str, type[Rule]]":
    """Every rule, by code. Defined before the imports below so that a rule module may import it
    while this package is still loading."""
    return dict(sorted(Rule.registry.items()))


for _module in pkgutil.walk_packages(__path__, prefix=f"{__name__}."):
    if _module.name.rsplit(".", 1)[-1] != "common":
        importlib.import_module(_module.name)
