"""Batch jobs: long runs of many deals that read no keyboard and serve no page.

- :mod:`euchre.jobs.tournament`: bots against bots, duplicate deals, points per deal;
- :mod:`euchre.jobs.selfplay`: self-play data (observations, actions, outcomes);
- :mod:`euchre.jobs.train`: the expert's learned pre-play correction, fitted on such data;
- :mod:`euchre.jobs.analysis`: reviews of recorded games against the expert;
- :mod:`euchre.jobs.bench`: the timings of ``euchre bench`` and the benchmarks' helpers;
- :mod:`euchre.jobs.distributed`: the work of any of them cut into chunks, run on this
  machine's cores or on a Ray cluster, with checkpoints.

They stand on the engine, the solver and the bots, and are driven by the command line
(:mod:`euchre.cli`), the web server (:mod:`euchre.server`, for its reviews) and the
benchmarks; nothing here imports those.  Import the module you need: this package
imports none of them, so that ``import euchre.jobs.bench`` does not load Ray's glue.
"""
