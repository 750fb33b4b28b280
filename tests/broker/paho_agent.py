"""An agent written from docs/agent-protocol.md with Eclipse Paho (not the project's MQTT library).

Usage: paho_agent.py HOST PORT PROVISIONING_KEY
Prints one JSON document with what each step observed; the vitest file asserts on it.
Works with paho-mqtt 1.x (Debian bookworm) and 2.x.
"""
import json
import queue
import sys
import threading
import time

import paho.mqtt.client as mqtt

HOST, PORT, KEY = sys.argv[1], int(sys.argv[2]), sys.argv[3]
ROOT = "pf/v1"
TIMEOUT = 10


class Conn:
    """One MQTT 3.1.1 connection with blocking helpers over paho's network thread."""

    def __init__(self, client_id, username, password, will=None):
        try:
            self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION1, client_id=client_id, protocol=mqtt.MQTTv311)
        except AttributeError:  # paho-mqtt 1.x
            self.c = mqtt.Client(client_id=client_id, protocol=mqtt.MQTTv311)
        self.c.username_pw_set(username, password)
        if will:
            self.c.will_set(will[0], will[1], qos=1, retain=False)
        self.messages = queue.Queue()
        self.subacks = {}
        self.pubacks = set()
        self.connected = threading.Event()
        self.disconnected = threading.Event()
        self.connect_rc = None
        self.disconnect_rc = None
        self.c.on_connect = self._on_connect
        self.c.on_disconnect = self._on_disconnect
        self.c.on_message = lambda c, u, m: self.messages.put((m.topic, m.payload))
        self.c.on_subscribe = lambda c, u, mid, granted: self.subacks.__setitem__(mid, list(granted))
        self.c.on_publish = lambda c, u, mid: self.pubacks.add(mid)
        self.c.connect(HOST, PORT, keepalive=30)
        self.c.loop_start()
        if not self.connected.wait(TIMEOUT):
            raise RuntimeError("no CONNACK")

    def _on_connect(self, c, u, flags, rc):
        self.connect_rc = rc
        self.connected.set()

    def _on_disconnect(self, c, u, rc):
        self.disconnect_rc = rc
        self.disconnected.set()

    def subscribe(self, topic):
        """Granted QoS from the SUBACK (128 = refused)."""
        rc, mid = self.c.subscribe(topic, qos=1)
        deadline = time.time() + TIMEOUT
        while mid not in self.subacks:
            if time.time() > deadline:
                raise RuntimeError("no SUBACK for " + topic)
            time.sleep(0.01)
        return self.subacks[mid][0]

    def request(self, topic, body, response_topic):
        """Publishes at QoS 1 and waits for the PUBACK and the response on response_topic."""
        info = self.c.publish(topic, json.dumps(body), qos=1)
        deadline = time.time() + TIMEOUT
        while True:
            remaining = deadline - time.time()
            if remaining <= 0:
                raise RuntimeError("no response on " + response_topic)
            t, payload = self.messages.get(timeout=remaining)
            if t == response_topic:
                response = json.loads(payload)
                break
        puback_deadline = time.time() + TIMEOUT
        while info.mid not in self.pubacks and time.time() < puback_deadline:
            time.sleep(0.01)
        response["_puback"] = info.mid in self.pubacks
        return response

    def close(self):
        self.c.disconnect()
        self.c.loop_stop()


out = {}

# Provisioning: a wildcard inside the own prefix, as the document allows; outside it is refused.
prov_id = "paho-prov-%d" % int(time.time() * 1000 % 1e9)
prov = Conn(prov_id, "provision", KEY)
out["provisionConnect"] = prov.connect_rc
out["provisionWildcard"] = prov.subscribe("%s/provision/%s/res/+" % (ROOT, prov_id))
out["provisionOtherClient"] = prov.subscribe("%s/provision/someone-else/res/+" % ROOT)
out["provisionAll"] = prov.subscribe("%s/provision/#" % ROOT)
reg = prov.request("%s/provision/%s/req/register" % (ROOT, prov_id), {"requestId": "r1", "product": "PahoBox", "serial": "PAHO-1", "name": "Paho agent"}, "%s/provision/%s/res/register" % (ROOT, prov_id))
out["register"] = reg
prov.close()

agent_id = reg["result"]["agentId"]
secret = reg["result"]["secret"]
prefix = "%s/agents/%s/" % (ROOT, agent_id)
agent = Conn(agent_id, agent_id, secret, will=(prefix + "status", b'{"online": false}'))
out["agentConnect"] = agent.connect_rc
out["agentWildcard"] = agent.subscribe(prefix + "res/+")
out["agentOtherAgents"] = agent.subscribe("%s/agents/+/res/+" % ROOT)
out["createApplication"] = agent.request(prefix + "req/createApplication", {"requestId": "c1"}, prefix + "res/createApplication")
out["ping"] = agent.request(prefix + "req/ping", {"requestId": "p1", "metrics": {"dataSegsOut": 1000, "dsackDups": 0, "totalRetrans": 3}, "tunnel": False}, prefix + "res/ping")
# A report with an invalid payload is refused with a reason (and still acknowledged).
out["invalidReport"] = agent.request(prefix + "req/updateClientState", {"requestId": "u1", "systems": "not-a-list"}, prefix + "res/updateClientState")
# A report on another agent's topic: the broker refuses it and closes the connection.
agent.c.publish("%s/agents/not-me/req/updateClientState" % ROOT, json.dumps({"systems": []}), qos=1)
out["otherTopicClosed"] = agent.disconnected.wait(TIMEOUT)
out["otherTopicDisconnectRc"] = agent.disconnect_rc
agent.c.loop_stop()

print(json.dumps(out))
