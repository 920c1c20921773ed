"""Is a call that deletes more than one entity's memories made where one entity is in hand?

A project-wide delete is common and deliberate in scripts, notebooks, demos and tests that clean
up: there the code around it names no single user. The mistake the destructive-scope rules
(MEM150, MEM151) look for is narrower: a function that is *given* one user's (agent's, app's,
run's) id as a parameter and then wipes every user's memories, with no test of that parameter
deciding the branch. Everything else stays silent:

- the call is not inside a function (a lambda without parameters counts as the function around
  it), or the function is a test (`test*`, or a method of a `Test*` class);
- no parameter of the enclosing function names an entity id (`user_id`, `agent_id`, `app_id`,
  `run_id`, their camelCase forms, or a name ending in one: `current_user_id`);
- the call passes that parameter (`delete_all(user_id="*", agent_id=agent_id)` is scoped by it);
  a method given to another call to run (`to_thread(memory.reset)`, `run_in_executor(pool,
  client.delete_users, ...)`) is judged by what, and where, that call is;
- the call sits under an `if`/`while`/conditional expression whose test reads the parameter
  (`if user_id is None: client.reset()`: the author chose the wide scope for that case).
"""

from __future__ import annotations

from typing import Union

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.rules.surface.results import Parents, _parents
from mem0lint.sdk.dialects import MEM0_ENTITIES
from mem0lint.walk import children

_ENTITY_SUFFIXES = tuple(sorted(name.replace("_", "") for name in MEM0_ENTITIES))


def is_entity_name(name: str) -> bool:
    """`user_id`, `userId`, `current_user_id`, `agentId`, ...; not `user` or `uid`."""
    flat = name.lower().replace("_", "")
    if not flat.endswith(_ENTITY_SUFFIXES):
        return False
    # `current_user_id` / `currentUserId` end in the id; `useridx` or `reuserid` do not count:
    # the id must start the name or follow an underscore / a capital letter.
    for suffix in MEM0_ENTITIES:
        if name == suffix or name.endswith("_" + suffix):
            return True
        camel = suffix.split("_")[0] + "".join(p.title() for p in suffix.split("_")[1:])
        if name == camel or name.endswith(camel[0].upper() + camel[1:]):
            return True
    return False


def _names(node: cst.CSTNode) -> set[str]:
    """The names an expression reads: not keyword names (`user_id=`) nor attributes (`.x`)."""
    found = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Name):
            found.add(current.value)
        elif isinstance(current, (cst.Arg, cst.Attribute)):
            stack.append(current.value)
        else:
            stack.extend(children(current))
    return found


def _function(site: CallSite, parents: Parents) -> Union[cst.FunctionDef, None]:
    """The function the call is made in. A lambda without parameters defers the call but leaves
    it in the function (`run_in_executor(pool, lambda: memory.reset())`); one with parameters is
    a function of its own, which this does not judge."""
    node: Union[cst.CSTNode, None] = site.outer or site.call
    while node is not None:
        node = parents.get(id(node))
        if isinstance(node, cst.Lambda) and _has_parameters(node):
            return None
        if isinstance(node, cst.FunctionDef):
            return node
    return None


def _has_parameters(function: cst.Lambda) -> bool:
    params = function.params
    return bool(
        params.posonly_params
        or params.params
        or params.kwonly_params
        or isinstance(params.star_arg, cst.Param)
        or isinstance(params.star_kwarg, cst.Param)
    )


def _is_test(function: cst.FunctionDef, parents: Parents) -> bool:
    node: Union[cst.CSTNode, None] = function
    while node is not None:
        if isinstance(node, cst.FunctionDef) and node.name.value.lower().startswith("test"):
            return True
        if isinstance(node, cst.ClassDef) and node.name.value.startswith("Test"):
            return True
        node = parents.get(id(node))
    return False


def in_test(site: CallSite) -> bool:
    """Is the call inside a test function (`test*`, or a method of a `Test*` class)?"""
    parents = _parents(site.resolver.collector, site)
    if parents is None:
        return True  # unknown: the callers stay silent
    function = _function(site, parents)
    return function is not None and _is_test(function, parents)


def _parameters(function: cst.FunctionDef) -> list[str]:
    params = function.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            every.append(star)
    return [p.name.value for p in every]


def entity_parameter(site: CallSite) -> Union[str, None]:
    """The entity-id parameter of the function around the call that the call ignores: the
    reason a wide delete there is likely a mistake; None when there is none (stay silent)."""
    if site.rest:
        return None
    parents = _parents(site.resolver.collector, site)
    if parents is None:
        return None
    function = _function(site, parents)
    if function is None or _is_test(function, parents):
        return None
    entities = [name for name in _parameters(function) if is_entity_name(name)]
    if not entities:
        return None
    # A call forwarded (`to_thread(memory.delete_all, user_id=uid)`) or spread is written as
    # `outer`: what it passes and where it stands are that call's.
    written = site.outer or site.call
    passed = _names(site.call) if written is site.call else _names(written) | _names(site.call)
    entities = [name for name in entities if name not in passed]
    if not entities:
        return None
    node: Union[cst.CSTNode, None] = written
    while node is not None and node is not function:
        parent = parents.get(id(node))
        test = None
        if isinstance(parent, (cst.If, cst.While, cst.IfExp)) and node is not parent.test:
            test = parent.test
        elif isinstance(parent, cst.Else):  # `else:` of an if/while/for/try
            owner = parents.get(id(parent))
            if isinstance(owner, (cst.If, cst.While)):
                test = owner.test
        if test is not None and _names(test) & set(entities):
            return None
        node = parent
    return entities[0]
