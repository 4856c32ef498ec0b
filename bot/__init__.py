"""The conversational side: parse a question, answer it, render the reply, talk to Telegram."""
