"""Environments for research libraries, over the rules engine and its compiled core.

* :mod:`euchre.envs.openspiel`: ``python_euchre``, every variant as an OpenSpiel game
  (optional extra ``bench``); importing it registers the game with ``pyspiel``;
* :mod:`euchre.envs.pettingzoo`: a PettingZoo AEC environment, every seat an agent
  (optional extra ``pettingzoo``);
* :mod:`euchre.envs.gymnasium`: a Gymnasium environment, one seat against our bots, and a
  batched :class:`gymnasium.vector.VectorEnv` (optional extra ``gymnasium``); importing it
  registers ``euchre/Euchre-v0``;
* :mod:`euchre.envs.table`: what the last two share, with no library of their own: one
  :class:`~euchre.envs.table.Episode` (a deal or a game) on the core, the observation of
  a seat, the rewards and the records.

Importing :mod:`euchre` imports none of these, so the core install stays light.  The
observation layout and the reward conventions are in ``docs/research.md``.
"""
