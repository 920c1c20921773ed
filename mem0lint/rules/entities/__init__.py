"""MEM4xx: entity scoping in mem0 filters (user_id, agent_id, app_id, run_id).

One rule per module.
"""
