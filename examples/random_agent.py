"""A random agent in fow's PettingZoo environment (the AEC loop), under chess.com's rules.

    pip install ./python pettingzoo
    python3 examples/random_agent.py
"""

from fow.env import env

e = env(rules="chesscom", render_mode="ansi")
e.reset(seed=7)
for agent in e.agent_iter():
    obs, reward, terminated, truncated, info = e.last()
    if terminated or truncated:
        print(f"{agent}: reward {reward:+}, {info['result']} ({info['reason']})")
        action = None
    else:
        # A random legal action: the mask marks them among fow.ACTIONS.
        action = e.action_space(agent).sample(obs["action_mask"])
    e.step(action)
print(e.render().splitlines()[0])
