"""The cluster as the server sees it, and all of it the server sees (an import contract says so): the settings,
the ``Cluster`` a server opens, and this server as one node of it (``start_nodes``), given its tables through
the Protocols of ``served``. The rest of the cluster, NATS included, stays behind this module."""

from .config import ClusterConfig
from .node import Cluster
from .nodes import Nodes, start_nodes
from .served import ServerKeeper, ServerTables

__all__ = ["Cluster", "ClusterConfig", "Nodes", "ServerKeeper", "ServerTables", "start_nodes"]
